package jobs

import (
	"sync"

	"github.com/bulkdesk/bulkdesk/app/worker"
	"github.com/bulkdesk/bulkdesk/schema"
)

// A Document is a request a job has loaded, kept for the jobs that follow
// (pages of problems, the review table, edits, exports and submission).
type Document struct {
	ID         int
	Kind       *schema.Kind
	BackOffice bool
	FileName   string

	elements []any
	report   *schema.Report
	// origin locates element i in the operator's file; nil for a JSON
	// request body, whose elements are their own places.
	origin func(i int) (sheet string, row int)
}

// NewDocument returns a document of decoded elements (as by
// schema.DecodeJSON) and their validation report. origin, when not nil,
// gives the file row of each element; nil means a JSON request body.
func NewDocument(kind *schema.Kind, backOffice bool, fileName string, elements []any, report *schema.Report, origin func(i int) (string, int)) *Document {
	return &Document{Kind: kind, BackOffice: backOffice, FileName: fileName, elements: elements, report: report, origin: origin}
}

// Elements returns the request's elements as they would be sent, in file
// order.
func (d *Document) Elements() []any { return d.elements }

// Report returns the validation report of the elements.
func (d *Document) Report() *schema.Report { return d.report }

// Origin returns where element i came from: the sheet and row of a
// spreadsheet, or for a JSON request body "" and the element's index.
func (d *Document) Origin(i int) (sheet string, row int) {
	if d.origin == nil {
		return "", i
	}
	return d.origin(i)
}

// Documents keeps the most recently loaded documents: an operator works on
// one file at a time, and each may hold 10,000 elements.
type Documents struct {
	mu   sync.Mutex
	keep int
	next int
	docs []*Document
}

// NewDocuments returns a store that keeps the last keep documents.
func NewDocuments(keep int) *Documents { return &Documents{keep: keep} }

// Add stores d under a new id, dropping the oldest document when full, and
// returns the id.
func (s *Documents) Add(d *Document) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	d.ID = s.next
	s.docs = append(s.docs, d)
	if len(s.docs) > s.keep {
		s.docs = s.docs[len(s.docs)-s.keep:]
	}
	return d.ID
}

// Get returns the document with the given id.
func (s *Documents) Get(id int) (*Document, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.docs {
		if d.ID == id {
			return d, nil
		}
	}
	return nil, worker.Errorf(worker.CodeGone, "the file is no longer loaded; load it again")
}
