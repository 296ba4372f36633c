// Package journaltest is the behaviour every submission.Journal keeps,
// run against each: memory, the command line's former JSON file, a store
// of strings by key (localStorage), the browser's IndexedDB and the
// command line's database.
package journaltest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/submission"
)

// Run runs the suite. open returns the journal under test, empty the
// first time; each later call opens it again, as a restart does (or
// returns the same journal where there is no other handle on it).
func Run(t *testing.T, open func() submission.Journal) {
	t.Helper()
	ctx := context.Background()
	j := open()
	if all, err := j.Entries(ctx); err != nil || len(all) != 0 {
		t.Fatalf("a new journal holds %v, %v", all, err)
	}
	t0 := time.Date(2030, 5, 1, 12, 0, 0, 0, time.UTC)
	a := submission.Entry{Ref: "bd-a", Digest: "da", Submission: "s1", Kind: "transfers", Chunks: 2, State: submission.Planned,
		Elements: submission.Spans{{From: 0, To: 3}}, Created: t0, Updated: t0, Body: json.RawMessage(`[{"x":1}]`)}
	b := a
	b.Ref, b.Digest, b.Chunk, b.Created = "bd-b", "db", 1, t0.Add(time.Second)
	for _, e := range []submission.Entry{a, b} {
		if err := j.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	a.State, a.BulkID, a.Body = submission.Submitted, "77", nil
	if err := j.Put(ctx, a); err != nil {
		t.Fatal(err)
	}
	// A second handle sees what the first wrote, as after a restart.
	all, err := open().Entries(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].Ref != "bd-a" || all[0].BulkID != "77" || all[0].State != submission.Submitted || all[0].Body != nil {
		t.Fatalf("entries %+v", all)
	}
	if string(all[1].Body) != `[{"x":1}]` || all[1].Elements.Len() != 3 || !all[1].Created.Equal(b.Created) {
		t.Errorf("entry b came back as %+v", all[1])
	}
	got, ok, err := submission.Lookup(ctx, j, "bd-b")
	if !ok || err != nil || got.Chunk != 1 {
		t.Errorf("Lookup = %+v %v %v", got, ok, err)
	}
	subs := submission.Submissions(all)
	if len(subs) != 1 || len(subs[0].Entries) != 2 || subs[0].State() != submission.Sending || !subs[0].Interrupted() {
		t.Errorf("submissions %+v", subs)
	}
	if err := j.Delete(ctx, "bd-a"); err != nil {
		t.Fatal(err)
	}
	if all, _ := open().Entries(ctx); len(all) != 1 || all[0].Ref != "bd-b" {
		t.Errorf("after Delete: %+v", all)
	}
}
