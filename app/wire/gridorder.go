package wire

// ShownOrder is the order the review table shows its columns in, as
// indexes into cols: the column that tells the rows apart (Pinned), the
// amount and its currency, then the file's other columns as the file has
// them, then the values set for every row. At 1024 pixels the operator
// then sees who receives how much without scrolling sideways. Columns
// keep their indexes everywhere else (edits, problems, the draft): only
// the showing moves, and what goes from cell to cell, the keys and
// JobNextProblem, follows it.
func ShownOrder(cols []GridColumn) []int {
	rank := func(c GridColumn) int {
		switch {
		case c.Pinned:
			return 0
		case c.Money == MoneyAmount:
			return 1
		case c.Money == MoneyCurrency:
			return 2
		case c.Set:
			return 4
		}
		return 3
	}
	order := make([]int, 0, len(cols))
	for r := range 5 {
		for i, c := range cols {
			if rank(c) == r {
				order = append(order, i)
			}
		}
	}
	return order
}
