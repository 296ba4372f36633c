package bulkreview

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/app/review"
)

// What a Difference is about.
const (
	DiffBulk   = "bulk"
	DiffKind   = "kind"
	DiffAPI    = "api"
	DiffCount  = "count"
	DiffBody   = "body"
	DiffTotal  = "total"
	DiffSource = "source"
)

// A Difference is one thing the API's record of a bulk does not show as
// it was declared (a receipt) or typed (control totals).
type Difference struct {
	// What is DiffBulk, DiffKind, DiffAPI, DiffCount, DiffBody, DiffTotal
	// or DiffSource.
	What string `json:"what"`
	// Text says it for operators.
	Text string `json:"text"`
	// Index is the place of the element a difference is about (What is
	// DiffElement, DiffExtra, DiffMissing or DiffOrder), from 0, in the
	// bulk's sequence; nil for a difference about the whole bulk.
	Index *int `json:"index,omitempty"`
}

// Compare names every difference between a receipt and the review of one
// of its bulks: kind, API, element count, body, each element that differs
// by its index (when the receipt lists the elements' fingerprints), and
// the totals of the bulk's chunk per currency and per source. None means
// the bulk holds what the maker declared.
func Compare(rc *Receipt, rv *Review) []Difference {
	i := slices.IndexFunc(rc.Chunks, func(c ReceiptChunk) bool { return c.BulkID == rv.BulkID })
	if i < 0 {
		return []Difference{{What: DiffBulk, Text: fmt.Sprintf("bulk %s is not in the receipt, which names %s", rv.BulkID, bulkWords(rc.BulkIDs()))}}
	}
	c := rc.Chunks[i]
	var out []Difference
	add := func(what, format string, a ...any) {
		out = append(out, Difference{What: what, Text: fmt.Sprintf(format, a...)})
	}
	if rc.Kind != rv.Kind.ID {
		add(DiffKind, "the receipt declares a bulk of %s; bulk %s is of %s", rc.Kind, rv.BulkID, rv.Kind.ID)
	}
	if rc.API != rv.API() {
		add(DiffAPI, "the receipt declares the %s API; bulk %s was read from the %s API", rc.API, rv.BulkID, rv.API())
	}
	if c.Elements != len(rv.Elements) {
		add(DiffCount, "the receipt declares %d elements in bulk %s; the bulk holds %d operations", c.Elements, rv.BulkID, len(rv.Elements))
	}
	if c.SHA256 != rv.BodySHA256 {
		add(DiffBody, "the content of bulk %s is not what was submitted: its body's SHA-256 is %s, the receipt declares %s", rv.BulkID, rv.BodySHA256, c.SHA256)
	}
	out = append(out, compareElements(c, rv)...)
	for _, d := range compareTotals("", c.Totals, rv.Currencies, "the receipt declares") {
		add(DiffTotal, "bulk %s: %s", rv.BulkID, d)
	}
	for _, d := range compareSources(c.Sources, rv.Sources) {
		add(DiffSource, "bulk %s: %s", rv.BulkID, d)
	}
	return out
}

func bulkWords(ids []string) string {
	if len(ids) == 1 {
		return "bulk " + ids[0]
	}
	return "bulks " + strings.Join(ids, ", ")
}

// compareTotals names the currencies whose count or sum differ between
// the totals declared and those found. prefix goes before each currency.
func compareTotals(prefix string, declared []Amount, found []money.Total, declares string) []string {
	byLabel := make(map[string]money.Total, len(found))
	var labels []string
	for _, t := range found {
		byLabel[t.Label()] = t
		labels = append(labels, t.Label())
	}
	var out []string
	seen := make(map[string]bool)
	for _, a := range declared {
		l := a.Label()
		seen[l] = true
		d, err := a.total()
		if err != nil {
			out = append(out, prefix+err.Error())
			continue
		}
		f, ok := byLabel[l]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("%s%s: %s %s in %s; the bulk holds none", prefix, l, declares, d.String(), amounts(d.Count)))
		case f.Count != d.Count || f.Minor.Cmp(d.Minor) != 0:
			out = append(out, fmt.Sprintf("%s%s: %s %s in %s; the bulk holds %s in %s", prefix, l, declares, d.String(), amounts(d.Count), f.String(), amounts(f.Count)))
		}
	}
	for _, l := range labels {
		if !seen[l] {
			f := byLabel[l]
			out = append(out, fmt.Sprintf("%s%s: the bulk holds %s in %s; %s none", prefix, l, f.String(), amounts(f.Count), declares))
		}
	}
	return out
}

func compareSources(declared []SourceAmounts, found []review.SourceTotal) []string {
	byName := make(map[string]review.SourceTotal, len(found))
	for _, s := range found {
		byName[s.Source] = s
	}
	var out []string
	seen := make(map[string]bool)
	for _, d := range declared {
		seen[d.Source] = true
		prefix := "source " + d.Source + ", "
		f, ok := byName[d.Source]
		if !ok {
			out = append(out, fmt.Sprintf("source %s: the receipt declares %s drawn on it; the bulk draws nothing on it", d.Source, elementWords(d.Count)))
			continue
		}
		if f.Count != d.Count {
			out = append(out, fmt.Sprintf("source %s: the receipt declares %s drawn on it; the bulk holds %d", d.Source, elementWords(d.Count), f.Count))
		}
		out = append(out, compareTotals(prefix, d.Totals, f.Totals, "the receipt declares")...)
	}
	for _, f := range found {
		if !seen[f.Source] {
			out = append(out, fmt.Sprintf("source %s: the bulk draws %s on it; the receipt declares none", f.Source, elementWords(f.Count)))
		}
	}
	return out
}

func amounts(n int) string {
	if n == 1 {
		return "1 amount"
	}
	return strconv.Itoa(n) + " amounts"
}

func elementWords(n int) string {
	if n == 1 {
		return "1 element"
	}
	return strconv.Itoa(n) + " elements"
}

// Control is what a checker types from the maker's paper or message: the
// element count and the totals per currency.
type Control struct {
	// Count is the number of elements; negative when not typed.
	Count  int
	Totals []ControlTotal
}

// A ControlTotal is one currency's total as typed.
type ControlTotal struct {
	Currency string
	Minor    *big.Int
}

// ParseControlTotal reads a typed total such as "EUR 1,234.56" or
// "1.234,56 EUR": a valid ISO 4217 code and an amount in major units,
// as the language whose separators sep are writes numbers or in the
// plain form (money.ParseCurrencyAmount). A text that reads two ways
// ("EUR 1.500" in French) is refused, never guessed, with how to type it.
func ParseControlTotal(text string, sep money.Separators) (ControlTotal, error) {
	cur, minor, err := money.ParseCurrencyAmount(text, sep)
	if err != nil {
		return ControlTotal{}, fmt.Errorf("control total: %w", err)
	}
	return ControlTotal{Currency: cur, Minor: big.NewInt(minor)}, nil
}

// Compare names every difference between the typed control totals and
// the review: the count, when typed, and, when any total is typed, every
// currency whose sum differs, is missing, or was not typed.
func (c Control) Compare(rv *Review) []Difference {
	var out []Difference
	if c.Count >= 0 && c.Count != len(rv.Elements) {
		out = append(out, Difference{What: DiffCount, Text: fmt.Sprintf("the control count is %d; bulk %s holds %d operations", c.Count, rv.BulkID, len(rv.Elements))})
	}
	if len(c.Totals) == 0 {
		return out
	}
	declared := make([]Amount, len(c.Totals))
	for i, t := range c.Totals {
		declared[i] = Amount{Currency: t.Currency, Minor: t.Minor.String()}
	}
	for _, d := range compareSums(declared, rv.Currencies) {
		out = append(out, Difference{What: DiffTotal, Text: fmt.Sprintf("bulk %s: %s", rv.BulkID, d)})
	}
	return out
}

// compareSums is compareTotals without the counts, which a checker does
// not type per currency.
func compareSums(declared []Amount, found []money.Total) []string {
	byLabel := make(map[string]money.Total, len(found))
	for _, t := range found {
		byLabel[t.Label()] = t
	}
	var out []string
	seen := make(map[string]bool)
	for _, a := range declared {
		d, _ := a.total() // made from a *big.Int: always digits
		seen[a.Label()] = true
		f, ok := byLabel[a.Label()]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("%s: the control total is %s; the bulk holds none", a.Label(), d.String()))
		case f.Minor.Cmp(d.Minor) != 0:
			out = append(out, fmt.Sprintf("%s: the control total is %s; the bulk holds %s in %s", a.Label(), d.String(), f.String(), amounts(f.Count)))
		}
	}
	for _, f := range found {
		if !seen[f.Label()] {
			out = append(out, fmt.Sprintf("%s: the bulk holds %s in %s; no control total was typed for it", f.Label(), f.String(), amounts(f.Count)))
		}
	}
	return out
}
