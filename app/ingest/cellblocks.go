package ingest

// cellBlocks hands out the cells of a table's rows from shared blocks:
// one allocation for thousands of cells instead of one per row, sized
// from what the file says it holds so that little of the last block is
// left unused. A 10,000-row sheet of 10 columns holds 100,000 cells of
// 24 bytes, most of the memory of a table.
type cellBlocks struct {
	free []Cell
	// expected is how many more cells the file is expected to need.
	expected int
	handed   int
}

// Bounds of a block: its largest size bounds what a file that declares
// more than it holds leaves unused.
const (
	minCellBlock = 256
	maxCellBlock = 1 << 14
)

// expect records that the file holds about n cells more than handed out.
func (b *cellBlocks) expect(n int) { b.expected = max(n, 0) }

// take returns n blank cells, their capacity limited to n so that a row
// that grows (an operator's edit) moves out of the block.
func (b *cellBlocks) take(n int) []Cell {
	if n == 0 {
		return nil
	}
	if len(b.free) < n {
		size := b.expected
		if size < n {
			// Past what the file declared: grow with the table.
			size = b.handed / 4
		}
		b.free = make([]Cell, max(min(size, maxCellBlock), minCellBlock, n))
	}
	cells := b.free[:n:n]
	b.free = b.free[n:]
	b.handed += n
	b.expected = max(b.expected-n, 0)
	return cells
}
