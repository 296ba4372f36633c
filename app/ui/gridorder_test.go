package ui

import (
	"slices"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/wire"
)

func TestTheGridShowsWhoReceivesHowMuchFirst(t *testing.T) {
	cols := []wire.GridColumn{
		{Field: "profileId"},
		{Field: "source.id"},
		{Field: "destination.id", Pinned: true},
		{Field: "description"},
		{Field: "destinationAmount.currency", Money: wire.MoneyCurrency},
		{Field: "destinationAmount.amount", Money: wire.MoneyAmount},
		{Field: "source.type", Set: true},
		{Field: "tag"},
	}
	order := gridOrder(cols)
	if want := []int{2, 5, 4, 0, 1, 3, 7, 6}; !slices.Equal(order, want) {
		t.Errorf("order = %v, want %v", order, want)
	}
	if at := shownAt(order, 4); at != 2 {
		t.Errorf("the currency is shown at %d, want 2", at)
	}
	// A currency set for every row is still shown beside the amount.
	cols[4].Set = true
	if order := gridOrder(cols); order[2] != 4 {
		t.Errorf("a currency set for every row is shown at %d: %v", shownAt(order, 4), order)
	}
	if order := gridOrder(nil); len(order) != 0 {
		t.Errorf("no columns, order %v", order)
	}
}
