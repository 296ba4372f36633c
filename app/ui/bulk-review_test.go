package ui

import (
	"testing"

	"github.com/bulkdesk/bulkdesk/app/lang"
)

// A typed count is read exactly or refused: "1.000" could be one or a
// thousand, and is never guessed.
func TestReviewControlTotalsAreReadOrRefused(t *testing.T) {
	for _, tc := range []struct {
		count, totals string
		want          int // -1: no count; -2: refused
		ntotals       int
	}{
		{"", "", -1, 0},
		{"10,000", "", 10000, 0},
		{" 300 ", "EUR 1,234.56; USD 20.00", 300, 2},
		{"", "EUR 5\nGBP 6", -1, 2},
		{"1.000", "", -2, 0},
		{"10,00", "", -2, 0},
		{"-3", "", -2, 0},
	} {
		r := bulkReview{count: tc.count, totals: tc.totals}
		c, err := r.controlTotals()
		switch {
		case tc.want == -2:
			if err == nil {
				t.Errorf("count %q was read as %+v", tc.count, c)
			}
		case err != nil:
			t.Errorf("%q %q: %v", tc.count, tc.totals, err)
		case tc.want == -1 && tc.ntotals == 0:
			if c != nil {
				t.Errorf("nothing typed gives %+v", c)
			}
		case c == nil:
			t.Errorf("%q %q gives nothing", tc.count, tc.totals)
		case (tc.want == -1) != (c.Count == nil) || c.Count != nil && *c.Count != tc.want || len(c.Totals) != tc.ntotals:
			t.Errorf("%q %q gives %+v", tc.count, tc.totals, c)
		}
	}
	// In German, as the checker writes numbers.
	defer setLanguage(lang.English)
	setLanguage(lang.German)
	r := bulkReview{count: "1.000", totals: "EUR 26.424,81; 1.000 USD"}
	if c, err := r.controlTotals(); err != nil || c.Count == nil || *c.Count != 1000 || len(c.Totals) != 2 || c.Lang != "de" {
		t.Errorf("German: %+v, %v", c, err)
	}
	r = bulkReview{totals: "EUR 1,500"}
	if _, err := r.controlTotals(); err == nil || err.Error() != `„EUR 1,500“ hat mehr Nachkommastellen als die Währung: Geben Sie 1.500,00 oder 1,50 ein.` {
		t.Errorf("a total with three decimals: %v", err)
	}
}
