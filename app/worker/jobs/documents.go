package jobs

import (
	"sync"

	"github.com/bulkdesk/bulkdesk/app/worker"
	"github.com/bulkdesk/bulkdesk/schema"
)

// A Document is a request a job has loaded, kept for the jobs that follow
// (pages of problems, and later the review table, edits and exports).
type Document struct {
	ID         int
	Kind       *schema.Kind
	BackOffice bool
	FileName   string
	Report     *schema.Report
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
