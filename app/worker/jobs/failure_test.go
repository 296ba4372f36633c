package jobs_test

import (
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/lang/langtest"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// A request the worker cannot read is a fault inside the console, not the
// operator's: the page is told so in the console's language, with a
// reference, and not what the JSON decoder said.
func TestARequestTheWorkerCannotReadIsSaidInTheConsolesLanguage(t *testing.T) {
	for _, l := range []string{"de", "fr"} {
		t.Run(l, func(t *testing.T) {
			h := newHarness(t)
			h.contract(wire.SetContract{Lang: l})
			e := h.failure(h.send(wire.JobProblems, []int{1}, nil))
			if e.Code != wire.CodeBadRequest || e.Ref == "" || !strings.Contains(e.Message, e.Ref) {
				t.Fatalf("the page got %+v: want code %q and a sentence with a reference", e, wire.CodeBadRequest)
			}
			if en := langtest.English(e.Message); len(en) > 0 || strings.Contains(e.Message, "json") {
				t.Errorf("the page reads %q: English words %q", e.Message, en)
			}
		})
	}
}
