package jobs

import (
	"slices"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/review"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/schema"
)

// firstWarnings is how many warnings of each sort the confirmation names
// at their cells; the count says how many there are in all.
const firstWarnings = 3

// warningKinds groups the warnings an operator accepts by sending: those
// of the elements sent (every element when only is nil) and those of the
// file as a whole, by sort, in the order of the file.
func warningKinds(r *schema.Report, only []int, w lang.Tag) []wire.WarningKind {
	var out []wire.WarningKind
	at := make(map[string]int)
	for _, p := range r.Problems {
		if p.Severity != schema.Warning || p.Code == schema.TooManyElements {
			continue // the parts a large file goes in are the plan's own news
		}
		if _, sent := slices.BinarySearch(only, p.Element); only != nil && p.Element != schema.RequestLevel && !sent {
			continue
		}
		title := warningTitle(p.Code)
		k, seen := at[title]
		if !seen {
			k = len(out)
			at[title] = k
			out = append(out, wire.WarningKind{Code: p.Code, Title: w.T(title)})
		}
		out[k].Count++
		if len(out[k].First) < firstWarnings {
			out[k].First = append(out[k].First, problemPage([]schema.Problem{p}, 0, 1)...)
		}
	}
	return out
}

// warningTitles name the sorts of warnings as an operator checks them.
var warningTitles = map[string]string{
	schema.CurrencyCode:         lang.Mark("Currencies that are not ISO 4217 codes"),
	review.DuplicateCode:        lang.Mark("Elements the same as an earlier one"),
	ingest.AmountOutlierCode:    lang.Mark("Amounts far above the others"),
	ingest.AmountAboveLimitCode: lang.Mark("Amounts above your limit"),
	ingest.IDLengthCode:         lang.Mark("Ids of unusual length"),
	ingest.TotalDiffersCode:     lang.Mark("Totals in the file that differ from its rows"),
	"unknown-field":             lang.Mark("Fields this kind of bulk does not know"),
	"non-positive-amount":       lang.Mark("Amounts of zero or less"),
	"timestamp-in-seconds":      lang.Mark("Times that look like seconds"),
	"scheduled-in-past":         lang.Mark("Execution dates in the past"),
	"example-row":               readingTitle,
	"left-out-row":              readingTitle,
	"hidden-row":                readingTitle,
	"hidden-sheet":              readingTitle,
	"formula":                   readingTitle,
	"unmapped-column":           readingTitle,
	"file":                      readingTitle,
}

var readingTitle = lang.Mark("How the file was read")

// warningTitle names the sort of warning code is: the other advice of
// the overlay states rules of the API's documentation.
func warningTitle(code string) string {
	if t, ok := warningTitles[code]; ok {
		return t
	}
	for _, e := range schema.TheOverlay().Entries {
		if e.ID == code && e.Severity == schema.Advise {
			return lang.Mark("Rules of the API documentation")
		}
	}
	return lang.Mark("Other warnings")
}
