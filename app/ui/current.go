package ui

// CurrentDocumentState is the go-app state under which the page that
// loaded a request hands it to the submission page: a CurrentDocument,
// kept in memory only (never persisted).
const CurrentDocumentState = "current-document"

// CurrentDocument names the request the worker holds and the operator is
// about to submit, with the counts the submission page shows before it has
// asked the worker for more.
type CurrentDocument struct {
	// ID is the worker's document id (worker.Validated.Document).
	ID         int
	Kind       string
	BackOffice bool
	FileName   string
	// Elements is how many elements the request holds; Invalid how many
	// of them have errors.
	Elements, Invalid int
}
