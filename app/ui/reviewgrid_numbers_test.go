package ui

import (
	"errors"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// A spreadsheet's number cells reach the table as stored (1234.56); a
// German or French operator reads and types them as their language
// writes numbers, and an edit stores exactly the number typed.
func TestTheGridWritesNumberCellsInTheOperatorsLanguage(t *testing.T) {
	defer setLanguage(consoleLang)
	g := &reviewGrid{Icolumns: []wire.GridColumn{
		{Field: "destination.id", Pinned: true},
		{Field: "destinationAmount.amount", Money: wire.MoneyAmount},
		{Field: "tag"},
		{Field: "description"},
	}}
	row := wire.GridRow{Cells: []string{"1100000001", "1234.56", "0.5", "1234.56"}, Numbers: []int{0, 1, 2}}
	amounts := wire.GridRow{Cells: []string{"1100000001", "12500", "", ""}, Numbers: []int{0, 1}}

	for _, tc := range []struct {
		lang                   lang.Tag
		id, amount, tag, round string
	}{
		{lang.German, "1100000001", "1.234,56", "0,5", "12.500"},
		{lang.French, "1100000001", "1\u202f234,56", "0,5", "12\u202f500"},
		{lang.English, "1100000001", "1,234.56", "0.5", "12,500"},
	} {
		setLanguage(tc.lang)
		got := []string{g.shownText(row, 0), g.shownText(row, 1), g.shownText(row, 2), g.shownText(amounts, 1)}
		want := []string{tc.id, tc.amount, tc.tag, tc.round}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: cell %d shown as %q, want %q", tc.lang, i, got[i], want[i])
			}
		}
		// A text cell is shown as the file has it, whatever it looks like.
		if s := g.shownText(row, 3); s != "1234.56" {
			t.Errorf("%s: a text cell shown as %q, want it as written", tc.lang, s)
		}
	}

	setLanguage(lang.German)
	for _, tc := range []struct {
		typed, stored string
		changed       bool
	}{
		{"1.234,56", "1234.56", false}, // the text shown, untouched
		{"1234,56", "1234.56", false},  // the same number typed otherwise
		{"1234.56", "1234.56", false},  // as stored
		{"1.234,57", "1234.57", true},
		{"1.234,5", "1234.5", true},
		{"2.500", "2500", true}, // groups, in German
		{"12,5", "12.5", true},
		{"-3", "-3", true},
	} {
		v, changed, err := g.editedValue(row, 1, tc.typed)
		if err != nil || v != tc.stored || changed != tc.changed {
			t.Errorf("German edit %q = %q, changed %v, %v; want %q, changed %v", tc.typed, v, changed, err, tc.stored, tc.changed)
		}
	}
	// Text that is no number, or reads two ways, changes nothing.
	for _, typed := range []string{"1.2.3,4,5", "zwölf"} {
		if v, changed, err := g.editedValue(row, 1, typed); err == nil || changed {
			t.Errorf("German edit %q = %q, changed %v, %v; want it refused", typed, v, changed, err)
		}
	}
	setLanguage(lang.French)
	var typed *money.TypedError
	if _, changed, err := g.editedValue(row, 1, "1.500"); !errors.As(err, &typed) || typed.Problem != money.ReadsTwoWays || changed {
		t.Errorf("French edit 1.500: changed %v, %v; want it refused as reading two ways", changed, err)
	}
	if v, changed, err := g.editedValue(row, 1, "1 500,25"); err != nil || v != "1500.25" || !changed {
		t.Errorf("French edit 1 500,25 = %q, changed %v, %v; want 1500.25", v, changed, err)
	}
	// An edited number cell's earlier value is said as it was shown.
	if was := g.shownWas(row, wire.EditedCell{Column: 1, Was: "12500"}); was != "12\u202f500" {
		t.Errorf("French earlier value %q, want 12 500", was)
	}
	// A text cell takes the text typed, as before.
	if v, changed, err := g.editedValue(row, 3, "1.234,57"); err != nil || v != "1.234,57" || !changed {
		t.Errorf("text cell edit = %q, changed %v, %v; want the text as typed", v, changed, err)
	}
}
