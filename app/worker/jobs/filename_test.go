package jobs_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// fileNames records the HeaderFileName of every submission that reaches
// an API.
type fileNames struct {
	api http.Handler
	mu  sync.Mutex
	got [][]string
}

func (f *fileNames) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		f.mu.Lock()
		f.got = append(f.got, r.Header.Values(bulkapi.HeaderFileName))
		f.mu.Unlock()
	}
	f.api.ServeHTTP(w, r)
}

// Through the console's server, a submission names its file for the
// four-eyes record; sent to the API directly, it names none (a browser
// would first ask the API whether it takes such a header).
func TestASubmissionThroughTheProxyNamesItsFile(t *testing.T) {
	for _, proxy := range []bool{true, false} {
		api := &fileNames{api: fakeapi.New()}
		h := newHarness(t, withAPI(api))
		doc := h.load(fixture.Transfers(12))
		c := conn
		c.Proxy = proxy
		p := h.prepare(wire.PrepareSubmission{Document: doc.Document, Connection: &c})
		if p.Plan == "" {
			t.Fatalf("nothing to send: %+v", p)
		}
		if s, _ := h.submit(p.Plan, c); s.Failure != nil || len(s.Submission.Chunks) != 1 {
			t.Fatalf("submission %+v, failure %+v", s.Submission, s.Failure)
		}
		want := []string{"pay.json"}
		if !proxy {
			want = nil
		}
		if len(api.got) != 1 || len(api.got[0]) != len(want) || len(want) == 1 && api.got[0][0] != want[0] {
			t.Errorf("proxy %t: the submissions named %q, want %q", proxy, api.got, want)
		}
	}
}
