package ui

import "github.com/bulkdesk/bulkdesk/app/worker"

// gridOrder is the order the review table shows its columns in: the
// column that tells the rows apart (pinned), the amount and its currency,
// then the file's other columns as the file has them, then the values set
// for every row. At 1024 pixels the operator then sees who receives how
// much without scrolling sideways. The columns keep their indexes
// everywhere else (edits, problems, the draft): only the showing moves.
func gridOrder(cols []worker.GridColumn) []int {
	rank := func(c worker.GridColumn) int {
		switch {
		case c.Pinned:
			return 0
		case c.Money == worker.MoneyAmount:
			return 1
		case c.Money == worker.MoneyCurrency:
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

// firstShown returns the column shown first, 0 when there is none.
func firstShown(cols []worker.GridColumn) int {
	if order := gridOrder(cols); len(order) > 0 {
		return order[0]
	}
	return 0
}

// shownAt returns where column col is shown (its place in order), or -1.
func shownAt(order []int, col int) int {
	for i, c := range order {
		if c == col {
			return i
		}
	}
	return -1
}

// columnClasses are the classes of a column's header and cells that say
// what it holds, for its width and alignment.
func columnClasses(c worker.GridColumn) []string {
	switch c.Money {
	case worker.MoneyAmount:
		return []string{"grid-amount"}
	case worker.MoneyCurrency:
		return []string{"grid-currency"}
	}
	return nil
}

// fieldName names a field in the console's language, or by its path when
// it has no title.
func fieldName(path string) string {
	if title := fieldTitles[itemIndex.ReplaceAllString(path, "[]")]; title != "" {
		return t(title)
	}
	return path
}
