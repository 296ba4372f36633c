package schema

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Severity says whether a problem stops an element from being sent.
type Severity string

const (
	// Error marks an element the API would refuse.
	Error Severity = "error"
	// Warning marks a value the API accepts but that is very likely a mistake.
	Warning Severity = "warning"
)

// RequestLevel is the element index of a problem with the request as a whole.
const RequestLevel = -1

// A Problem is one thing wrong with a request, as precise as the data allows.
type Problem struct {
	// Element is the 0-based index of the element in the request, or
	// RequestLevel.
	Element int `json:"element"`
	// Pointer is the JSON pointer of the value inside the element, such as
	// "/requestBody/destinationAmount/amount"; "" is the element itself.
	Pointer string `json:"pointer"`
	// Field names the value as an operator reads it: "destinationAmount.amount".
	Field string `json:"field,omitempty"`
	// Code is a stable machine name for the sort of problem: "required",
	// "pattern", "unknown-field", "non-positive-amount", …
	Code string `json:"code"`
	// Message is a sentence for people that names the field, what was
	// expected and the value found.
	Message string `json:"message"`
	// Expected says what the contract wants, without the field's name.
	Expected string `json:"expected,omitempty"`
	// Value is the offending value as JSON, cut short.
	Value string `json:"value,omitempty"`
	// Severity is Error or Warning.
	Severity Severity `json:"severity"`

	// Sheet, Row and Column locate the value in the file it came from,
	// when it came from a spreadsheet or CSV file; Row is 1-based.
	Sheet  string `json:"sheet,omitempty"`
	Row    int    `json:"row,omitempty"`
	Column string `json:"column,omitempty"`
}

// A Report is the outcome of checking a request: its size and every problem.
type Report struct {
	Kind string `json:"kind"`
	// Elements is how many elements the request holds.
	Elements int `json:"elements"`
	// Problems holds errors and warnings, ordered by element and pointer.
	Problems []Problem `json:"-"`
}

// Add appends problems to the report.
func (r *Report) Add(p ...Problem) { r.Problems = append(r.Problems, p...) }

// Sort orders the problems by element, then pointer, errors before warnings.
func (r *Report) Sort() {
	slices.SortStableFunc(r.Problems, func(a, b Problem) int {
		return cmp.Or(
			cmp.Compare(a.Element, b.Element),
			strings.Compare(a.Pointer, b.Pointer),
			strings.Compare(string(a.Severity), string(b.Severity)),
		)
	})
}

// Errors returns the problems that are errors.
func (r *Report) Errors() []Problem { return r.bySeverity(Error) }

// Warnings returns the problems that are warnings.
func (r *Report) Warnings() []Problem { return r.bySeverity(Warning) }

func (r *Report) bySeverity(s Severity) []Problem {
	out := []Problem{}
	for _, p := range r.Problems {
		if p.Severity == s {
			out = append(out, p)
		}
	}
	return out
}

// InvalidElements returns the indexes of the elements that have at least one
// error, in order.
func (r *Report) InvalidElements() []int {
	var out []int
	seen := make(map[int]bool)
	for _, p := range r.Problems {
		if p.Severity == Error && p.Element != RequestLevel && !seen[p.Element] {
			seen[p.Element] = true
			out = append(out, p.Element)
		}
	}
	slices.Sort(out)
	return out
}

// ValidElements returns the indexes of the elements without errors, in
// order: what "submit the valid elements, keep the invalid aside" sends.
func (r *Report) ValidElements() []int {
	invalid := r.InvalidElements()
	out := make([]int, 0, r.Elements-len(invalid))
	for i := range r.Elements {
		if _, bad := slices.BinarySearch(invalid, i); !bad {
			out = append(out, i)
		}
	}
	return out
}

// RequestErrors reports whether the request as a whole is refused (empty,
// too long, not an array), whatever its elements hold.
func (r *Report) RequestErrors() bool {
	for _, p := range r.Problems {
		if p.Severity == Error && p.Element == RequestLevel {
			return true
		}
	}
	return false
}

// Valid reports whether the request has no errors at all.
func (r *Report) Valid() bool {
	for _, p := range r.Problems {
		if p.Severity == Error {
			return false
		}
	}
	return true
}

// maxValueLen is how many characters of an offending value a message quotes.
const maxValueLen = 60

// truncate cuts s to at most n characters, marking the cut.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
