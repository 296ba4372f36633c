package ui

import "github.com/bulkdesk/bulkdesk/app/wire"

// gridOrder is the order the review table shows its columns in (see
// wire.ShownOrder, which F8 follows too).
func gridOrder(cols []wire.GridColumn) []int { return wire.ShownOrder(cols) }

// firstShown returns the column shown first, 0 when there is none.
func firstShown(cols []wire.GridColumn) int {
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
func columnClasses(c wire.GridColumn) []string {
	switch c.Money {
	case wire.MoneyAmount:
		return []string{"grid-amount"}
	case wire.MoneyCurrency:
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
