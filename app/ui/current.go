package ui

// CurrentDocumentState is the go-app state key under which the review
// screen leaves the document an operator chose to submit.
const CurrentDocumentState = "current-document"

// SubmitPath is the page that submits the current document.
const SubmitPath = "/submit"

// CurrentDocument is the document the review screen hands to the submit
// page: the worker keeps its elements (a jobs.LoadedFile, named by ID); this
// is what the page shows about it before asking the worker for more.
type CurrentDocument struct {
	// ID names the document in the worker's jobs.
	ID int
	// Kind is the bulk kind's id ("transfers").
	Kind string
	// BackOffice sends it through the back-office API.
	BackOffice bool
	// FileName is the file the elements came from.
	FileName string
	// Elements counts the elements; Invalid those with errors.
	Elements, Invalid int
}
