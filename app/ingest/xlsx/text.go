package xlsx

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// Cell text is kept in a few large blocks rather than in one allocation
// per value. A sheet of 10,000 rows holds 100,000 values of a few bytes:
// allocated one by one, each is rounded up to the allocator's size
// classes, needs a string header of 16 bytes where it is listed, and is
// one more object for the collector to walk, which under WebAssembly is
// most of what reading costs.

// sharedStrings is a workbook's table of shared strings: their text in
// blocks of about 64 KiB, each string whole inside one block, and 4 bytes
// per string saying where it starts.
type sharedStrings struct {
	blocks []string
	// blockStart[k] is the offset of blocks[k] in the text of all strings
	// one after another; string i spans offsets[i] to offsets[i+1].
	blockStart []uint32
	offsets    []uint32
	// fill collects the next block, from offset fillStart; it becomes a
	// string, copied at its exact size, when full.
	fill      []byte
	fillStart uint32
}

const sharedBlock = 64 << 10

// newSharedStrings returns an empty table with room for n strings.
func newSharedStrings(n int) *sharedStrings {
	return &sharedStrings{offsets: make([]uint32, 1, n+1)}
}

// add appends the next string, decoding OOXML's _xHHHH_ escapes. It fails
// when the text of all strings passes 4 GiB, which the part limits keep
// out of reach unless they are raised.
func (s *sharedStrings) add(raw []byte) error {
	end := s.offsets[len(s.offsets)-1]
	// Decoding never lengthens text, so raw's length bounds the string's.
	if len(s.fill) > 0 && len(s.fill)+len(raw) > sharedBlock {
		s.flush()
	}
	if len(s.fill) == 0 {
		s.fillStart = end
	}
	if s.fill == nil {
		s.fill = make([]byte, 0, sharedBlock)
	}
	s.fill = appendUnescapedOOXML(s.fill, raw)
	next := uint64(s.fillStart) + uint64(len(s.fill))
	if next > math.MaxUint32 {
		return fmt.Errorf("%w: the shared strings hold over 4 GiB of text", ErrTooLarge)
	}
	s.offsets = append(s.offsets, uint32(next))
	if len(s.fill) >= sharedBlock {
		s.flush() // a long string gets a block of its own
	}
	return nil
}

// flush turns the text collected into a block.
func (s *sharedStrings) flush() {
	if len(s.fill) == 0 {
		return
	}
	s.blocks = append(s.blocks, string(s.fill))
	s.blockStart = append(s.blockStart, s.fillStart)
	if cap(s.fill) > sharedBlock {
		s.fill = nil // grown for a long string
	} else {
		s.fill = s.fill[:0]
	}
}

// done ends the table: the last block is made and the buffer dropped.
func (s *sharedStrings) done() {
	s.flush()
	s.fill = nil
}

// len returns the number of strings.
func (s *sharedStrings) len() int { return len(s.offsets) - 1 }

// get returns string i, which shares its block's memory.
func (s *sharedStrings) get(i int) (string, bool) {
	if i < 0 || i >= s.len() {
		return "", false
	}
	from, to := s.offsets[i], s.offsets[i+1]
	if from == to {
		return "", true
	}
	k, found := slices.BinarySearch(s.blockStart, from)
	if !found {
		k--
	}
	base := s.blockStart[k]
	return s.blocks[k][from-base : to-base], true
}

// textArena keeps the values a sheet writes in its cells (numbers,
// inline strings) in shared blocks. A string it returns keeps its whole
// block alive, as the cells of a table do anyway.
type textArena struct {
	block strings.Builder
}

const (
	minTextBlock = 1 << 10
	maxTextBlock = 32 << 10
)

// add returns a copy of b. Bytes written into a strings.Builder are never
// changed, and a block is filled only within its capacity, so the strings
// handed out stay valid and share the block.
func (a *textArena) add(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > maxTextBlock/4 {
		return string(b)
	}
	if a.block.Cap()-a.block.Len() < len(b) {
		size := min(max(2*a.block.Cap(), minTextBlock), maxTextBlock)
		a.block = strings.Builder{}
		a.block.Grow(size)
	}
	n := a.block.Len()
	a.block.Write(b)
	return a.block.String()[n:]
}

// unescapeOOXML decodes the _xHHHH_ escapes OOXML uses for characters XML
// cannot carry (Excel writes a carriage return as _x000D_).
func unescapeOOXML(s string) string {
	if !strings.Contains(s, "_x") {
		return s
	}
	return string(appendUnescapedOOXML(nil, []byte(s)))
}

// appendUnescapedOOXML appends b to dst with its _xHHHH_ escapes decoded.
func appendUnescapedOOXML(dst, b []byte) []byte {
	for {
		i := bytes.Index(b, []byte("_x"))
		if i < 0 {
			return append(dst, b...)
		}
		dst = append(dst, b[:i]...)
		b = b[i:]
		if r, ok := escapedRune(b); ok {
			dst = utf8.AppendRune(dst, r)
			b = b[7:]
			continue
		}
		dst = append(dst, b[0])
		b = b[1:]
	}
}

// escapedRune reads "_xHHHH_" at the start of b.
func escapedRune(b []byte) (rune, bool) {
	if len(b) < 7 || b[6] != '_' {
		return 0, false
	}
	var r rune
	for _, c := range b[2:6] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c|0x20 >= 'a' && c|0x20 <= 'f':
			r = r<<4 | rune(c|0x20-'a'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
