package jobs

import (
	"sync"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/review"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/schema"
)

// A LoadedFile is a file a job has loaded, kept for the jobs that follow:
// how it is read (the file, the sheet's table, the import with its mapping
// and settings) and, once built, the elements under review with their
// problems and edits.
type LoadedFile struct {
	ID         int
	Kind       *schema.Kind
	BackOffice bool
	FileName   string
	// KindSuggested says the file's headers chose Kind.
	KindSuggested bool

	// data or text is what was loaded, kept to read it again with other
	// options (a text file's encoding or delimiter).
	data []byte
	text string
	opts ingest.Options
	// timeZone is the time zone the operator chose for the file's dates,
	// in Settings or while reading it: every import of it starts there.
	timeZone string

	file        *ingest.File
	table       *ingest.Table
	im          *ingest.Import
	suggestions []wire.KindSuggestion
	// checked says a request body's text was validated once; its
	// elements may have been edited since.
	checked bool

	// review is the built document, nil until it is built and after
	// every change to how it is read.
	review *review.Document
	// times are the schedule's counts made with review (firstTimes).
	times *firstTimes
	// history is the changes to cells the operator can undo (undo.go).
	history editHistory
}

// Built reports whether the document's elements are built, and so whether
// Elements, Report and Origin have anything to say.
func (d *LoadedFile) Built() bool { return d.review != nil }

// Elements returns the request's elements as they would be sent, in file
// order, with the operator's edits: the request body's array. It is nil
// before the document is built.
func (d *LoadedFile) Elements() []any {
	if d.review == nil {
		return nil
	}
	return d.review.Elements()
}

// count is how many elements the built document holds, which Elements
// would decode for a request body kept as its bytes.
func (d *LoadedFile) count() int {
	if d.review == nil {
		return 0
	}
	return d.review.Len()
}

// Report returns the problems of the built document, each at its element
// and, for a spreadsheet or CSV file, its sheet, row and column. It is nil
// before the document is built.
func (d *LoadedFile) Report() *schema.Report {
	if d.review == nil {
		return nil
	}
	return d.review.Report()
}

// Origin returns the file row of element i: the sheet and row number of a
// spreadsheet or CSV file, or "" and i for an element of a JSON request
// body.
func (d *LoadedFile) Origin(i int) (sheet string, row int) {
	if d.review == nil {
		return "", i
	}
	return d.review.Origin(i)
}

// Review returns the built document, or nil.
func (d *LoadedFile) Review() *review.Document { return d.review }

// LoadedFiles keeps the most recently loaded files: an operator works on
// one file at a time, and each may hold 10,000 elements.
type LoadedFiles struct {
	mu   sync.Mutex
	keep int
	next int
	docs []*LoadedFile
	// language is the operator's, in which a file that is gone or not
	// validated is said; nil is English.
	language func() lang.Tag
}

// words is the language the store's errors are said in.
func (s *LoadedFiles) words() lang.Tag {
	if s.language == nil {
		return lang.English
	}
	return s.language()
}

// NewLoadedFiles returns a store that keeps the last keep files.
func NewLoadedFiles(keep int) *LoadedFiles { return &LoadedFiles{keep: keep} }

// Add stores d under a new id, dropping the oldest document when full, and
// returns the id.
func (s *LoadedFiles) Add(d *LoadedFile) int {
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
func (s *LoadedFiles) Get(id int) (*LoadedFile, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.docs {
		if d.ID == id {
			return d, nil
		}
	}
	return nil, wire.Errorf(wire.CodeGone, "%s", s.words().T("the file is no longer loaded; load it again"))
}

// built returns the document with the given id, which must be built.
func (s *LoadedFiles) built(id int) (*LoadedFile, error) {
	d, err := s.Get(id)
	if err != nil {
		return nil, err
	}
	if d.review == nil {
		w := s.words()
		return nil, wire.Errorf(wire.CodeBadRequest, "%s", w.F("%s is not validated yet", displayName(d.FileName, w)))
	}
	return d, nil
}
