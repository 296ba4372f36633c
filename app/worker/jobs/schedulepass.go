package jobs

import (
	"github.com/bulkdesk/bulkdesk/app/review"
	"github.com/bulkdesk/bulkdesk/schema"
)

// firstTimes are the schedule's counts made in the review's first pass
// over the elements (review.FirstPass), for the document's first
// summary: a pass of their own would build every row of a table again,
// or read every element of a request body again.
type firstTimes struct {
	doc     *review.Document
	version int
	lines   []*scheduleCount
}

// timesPass returns counts of kind k's timestamp fields and the pass
// that fills them.
func (s *Server) timesPass(k *schema.Kind) (*firstTimes, review.FirstPass) {
	t := &firstTimes{lines: s.scheduleCounts(k)}
	return t, func(e *review.PassElement) {
		for _, l := range t.lines {
			l.addPass(e)
		}
	}
}

// made ties the counts to the document made with their pass, as it is
// now: an edit changes its version and leaves them behind.
func (t *firstTimes) made(doc *review.Document) {
	t.doc, t.version = doc, doc.Version()
}

// of returns the counts when they are doc's as it is, else nil.
func (t *firstTimes) of(doc *review.Document) []*scheduleCount {
	if t == nil || t.doc != doc || t.version != doc.Version() || t.lines == nil {
		return nil
	}
	return t.lines
}
