package apijobs

import (
	"sync"

	"github.com/bulkdesk/bulkdesk/app/lang"
)

// words is the language the second worker says what it finds in
// (earlier submissions, repeats) and why a job failed: the page's, as the
// first worker tells it before the requests it forwards
// (runner.LanguageJob) and the last plan of a submission gives it
// (handoff.PlanSubmission.Lang).
type words struct {
	mu sync.Mutex
	l  lang.Tag
}

// use takes the language the first worker or a plan names; "" keeps the
// one in use.
func (w *words) use(tag string) {
	if l, ok := lang.Parse(tag); ok {
		w.mu.Lock()
		w.l = l
		w.mu.Unlock()
	}
}

// tag is the language in use, English until one is named.
func (w *words) tag() lang.Tag {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.l == "" {
		return lang.English
	}
	return w.l
}
