package wire

// JobProblems returns a page of a loaded request's problems. Request:
// ProblemsPage. Result: Problems.
const JobProblems = "problems"

// ProblemsPage is the request of JobProblems.
type ProblemsPage struct {
	Document int `json:"document"`
	Offset   int `json:"offset"`
	Limit    int `json:"limit"`
}

// Problems is the result of JobProblems.
type Problems struct {
	// Total is how many problems the document has.
	Total    int       `json:"total"`
	Offset   int       `json:"offset"`
	Problems []Problem `json:"problems"`
}

// The severities of problems, rows and cells, as schema.Severity names
// them.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
)

// RequestLevel is the Element of a problem with the request as a whole.
const RequestLevel = -1

// A Problem is one thing wrong with a request, as the page shows it. It
// carries the fields of the validator's problems that the page needs.
type Problem struct {
	// Element is the 0-based index of the element, or RequestLevel.
	Element int `json:"element"`
	// Field names the value ("destinationAmount.amount"); "" for the
	// element or the request as a whole.
	Field string `json:"field,omitempty"`
	// Code is a stable machine name for the sort of problem.
	Code string `json:"code"`
	// Message is a sentence for people.
	Message string `json:"message"`
	// Severity is SeverityError or SeverityWarning.
	Severity string `json:"severity"`
	// Value is the offending value as JSON, cut short ("\"eur\"").
	Value string `json:"value,omitempty"`
	// Sheet, Row and Column locate the value in a spreadsheet, when the
	// request came from one.
	Sheet  string `json:"sheet,omitempty"`
	Row    int    `json:"row,omitempty"`
	Column string `json:"column,omitempty"`
}
