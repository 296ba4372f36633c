package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/keyfields"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// reviewedPayments are 2,000 outgoing payments as a review sends them:
// element i pays "Payee i" i+1 EUR (every tenth in JPY), with reference
// "Invoice i"; element 5 is invalid, element 8 has a warning.
func reviewedPayments() *wire.ReviewElements {
	const n = 2000
	els := wire.NewReviewElements(n, func(i int) keyfields.Fields {
		cur, minor := "EUR", fmt.Sprint((i+1)*100)
		if i%10 == 0 {
			cur, minor = "JPY", fmt.Sprint(i+1)
		}
		return keyfields.Fields{
			Counterparty: keyfields.Counterparty{Type: keyfields.BankAccount, Name: fmt.Sprintf("Payee %d", i), IBAN: fmt.Sprintf("DE%020d", i)},
			Amount:       &keyfields.Amount{Currency: cur, Minor: minor},
			Reference:    fmt.Sprintf("Invoice %d", i),
			Source:       "managed_accounts 1001",
		}
	})
	els.MovesMoney, els.HasReference = true, true
	els.Problems = []wire.ElementProblems{
		{Element: 5, Errors: []string{"The amount is not a number."}},
		{Element: 8, Warnings: []string{"EUD is not an ISO 4217 currency."}},
	}
	return els
}

// The checker's grid finds elements by who receives and by reference,
// and filters the invalid ones, those in other bulks, those that differ
// from the receipt, one currency and amounts above one typed as the
// operator's language writes numbers.
func TestTheCheckersGridFindsAndFiltersElements(t *testing.T) {
	defer setLanguage(consoleLang)
	b := newBulkElements(reviewedPayments())
	if !slices.Equal(b.currencies, []string{"EUR", "JPY"}) {
		t.Errorf("currencies %q", b.currencies)
	}
	b.setRepeats([]wire.ElementRepeat{{Element: 3, BulkID: "B-7"}, {Element: 1999, BulkID: "B-7", Others: 2}})
	at := func(i int) *int { return &i }
	b.setDifferences([]wire.Difference{
		{What: "count", Text: "the receipt declares 1999 elements"},
		{What: "element", Index: at(12), Text: "element 12 is not what the receipt declares there"},
		{What: "missing", Index: at(40), Text: "the receipt's element 40 is not in the bulk"},
	})
	for _, tc := range []struct {
		name   string
		filter elementFilter
		above  string
		want   []int // the first few
		count  int
	}{
		{"everything", elementFilter{}, "", []int{0, 1, 2}, 2000},
		{"a name", elementFilter{search: "payee 1234"}, "", []int{1234}, 1},
		{"a reference, in any case", elementFilter{search: "  INVOICE 199"}, "", []int{199, 1990, 1991}, 11},
		{"an account", elementFilter{search: "de00000000000000000042"}, "", []int{42}, 1},
		{"invalid", elementFilter{show: showInvalid}, "", []int{5}, 1},
		{"in other bulks", elementFilter{show: showRepeated}, "", []int{3, 1999}, 2},
		{"differing", elementFilter{show: showDiffers}, "", []int{12}, 1},
		{"one currency", elementFilter{currency: "JPY"}, "", []int{0, 10, 20}, 200},
		// EUR above 1,500.00 and JPY above 1,500: elements 1500 to 1999.
		{"above, in English", elementFilter{}, "1,500", []int{1500, 1501, 1502}, 500},
		{"above, one currency", elementFilter{currency: "EUR"}, "1500.00", []int{1501, 1502}, 450},
	} {
		g := &reviewElements{Ielements: b, filter: tc.filter}
		g.setAbove(tc.above)
		if g.aboveProblem != "" {
			t.Fatalf("%s: %s", tc.name, g.aboveProblem)
		}
		got := b.view(g.filter)
		if len(got) != tc.count || !slices.Equal(got[:min(len(got), len(tc.want))], tc.want) {
			t.Errorf("%s: %d elements %v…, want %d %v…", tc.name, len(got), got[:min(len(got), 5)], tc.count, tc.want)
		}
	}

	// Typed as German writes numbers, and refused when it cannot be read
	// exactly in a currency's decimals.
	setLanguage(lang.German)
	g := &reviewElements{Ielements: b}
	g.setAbove("1.500,00")
	if got := b.view(g.filter); g.aboveProblem == "" || len(got) != 2000 {
		t.Errorf("1.500,00 with JPY in view: problem %q, %d shown", g.aboveProblem, len(got))
	}
	g.filter.currency = "EUR"
	g.setAbove("1.500,00")
	if got := b.view(g.filter); g.aboveProblem != "" || len(got) != 450 || got[0] != 1501 {
		t.Errorf("1.500,00 in EUR: problem %q, %d shown from %v", g.aboveProblem, len(got), got[:1])
	}
}

// Each row of the grid says who receives, how much, the reference and
// source, whether the element is valid, the bulk that holds it too and
// how it differs from the receipt, with its marks; F8 goes from one
// element with something to check to the next, round the view.
func TestTheCheckersGridRowsAndItsNextProblem(t *testing.T) {
	b := newBulkElements(reviewedPayments())
	at := func(i int) *int { return &i }
	b.setRepeats([]wire.ElementRepeat{{Element: 3, BulkID: "B-7", Others: 1}})
	b.setDifferences([]wire.Difference{{What: "element", Index: at(12), Text: "Element 12 is not what the receipt declares there."}})
	v := newElementView(b, elementFilter{})
	var heads []string
	for _, c := range v.columns() {
		heads = append(heads, c.Header)
	}
	if want := []string{"Paid to", "Amount", "Reference", "Source", "Valid", "In other bulks", "Receipt"}; !slices.Equal(heads, want) {
		t.Errorf("columns %q, want %q", heads, want)
	}
	rows := v.rows(wire.RowsWindow{Offset: 0, Limit: 20})
	if rows.Total != 2000 || rows.Offset != 0 || len(rows.Rows) != 20 {
		t.Fatalf("window %d+%d of %d", rows.Offset, len(rows.Rows), rows.Total)
	}
	for _, tc := range []struct {
		row      int
		cells    string
		severity string
	}{
		{1, "Payee 1, IBAN DE00000000000000000001|EUR 2.00|Invoice 1|managed_accounts 1001|Valid||", ""},
		{3, "Payee 3, IBAN DE00000000000000000003|EUR 4.00|Invoice 3|managed_accounts 1001|Valid|also in bulk B-7 and 1 other|", wire.SeverityWarning},
		{5, "Payee 5, IBAN DE00000000000000000005|EUR 6.00|Invoice 5|managed_accounts 1001|Invalid||", wire.SeverityError},
		{8, "Payee 8, IBAN DE00000000000000000008|EUR 9.00|Invoice 8|managed_accounts 1001|Valid, to check||", wire.SeverityWarning},
		{10, "Payee 10, IBAN DE00000000000000000010|JPY 11|Invoice 10|managed_accounts 1001|Valid||", ""},
		{12, "Payee 12, IBAN DE00000000000000000012|EUR 13.00|Invoice 12|managed_accounts 1001|Valid||not what the receipt declares here", wire.SeverityError},
	} {
		r := rows.Rows[tc.row]
		if got := strings.Join(r.Cells, "|"); got != tc.cells || r.Severity != tc.severity || r.Label != fmt.Sprintf("#%d", tc.row) || r.Element != tc.row {
			t.Errorf("row %d: %s %q %q, want %q %q", tc.row, r.Label, got, r.Severity, tc.cells, tc.severity)
		}
	}
	if r := rows.Rows[5]; len(r.Marks) != 1 || r.Marks[0].Column != 4 || r.Problems[0] != "The amount is not a number." {
		t.Errorf("row 5's marks %+v, problems %q", r.Marks, r.Problems)
	}

	// Ctrl+End asks for the last element: the window ends there.
	last := 1999
	if w := v.rows(wire.RowsWindow{Offset: 0, Limit: 120, Around: &last}); w.Position != 1999 || w.Offset != 1880 || w.Rows[len(w.Rows)-1].Element != 1999 {
		t.Errorf("around the last: position %d, offset %d", w.Position, w.Offset)
	}

	var path []int
	after := -1
	for range 6 {
		f := v.nextProblem(wire.NextProblem{After: after})
		if !f.Found {
			t.Fatalf("F8 after %d found nothing", after)
		}
		path, after = append(path, f.Element), f.Element
	}
	if !slices.Equal(path, []int{3, 5, 8, 12, 3, 5}) {
		t.Errorf("F8 went %v", path)
	}
	if f := v.nextProblem(wire.NextProblem{After: -1, Back: true}); f.Element != 12 || f.Column != 6 || f.Problem.Message == "" {
		t.Errorf("Shift+F8 from the start: %+v", f)
	}

	// A view the search narrows holds only what it finds.
	v = newElementView(b, elementFilter{search: "DE00000000000000000012"})
	if w := v.rows(wire.RowsWindow{Limit: 120}); w.Total != 1 || w.Rows[0].Element != 12 {
		t.Errorf("search view: %d rows from %d", w.Total, w.Rows[0].Element)
	}
	if f := v.nextProblem(wire.NextProblem{After: 12}); !f.Found || f.Element != 12 || !f.Wrapped {
		t.Errorf("F8 in a view of one problem: %+v", f)
	}
}
