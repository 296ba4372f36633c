package ui

import "github.com/bulkdesk/bulkdesk/app/worker"

// gridOrder is the order the review table shows its columns in (see
// worker.ShownOrder, which F8 follows too).
func gridOrder(cols []worker.GridColumn) []int { return worker.ShownOrder(cols) }

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
