package submission_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/submission"
)

// testJournal checks the behaviour every journal shares.
func testJournal(t *testing.T, open func() submission.Journal) {
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

func TestMemoryJournal(t *testing.T) {
	m := submission.NewMemory()
	testJournal(t, func() submission.Journal { return m })
}

func TestFileJournal(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state", "journal.json")
	testJournal(t, func() submission.Journal { return submission.NewFile(path) })
	left, _ := os.ReadDir(filepath.Dir(path))
	if len(left) != 1 {
		t.Errorf("the journal's folder holds %d files, want only the journal", len(left))
	}
	if err := os.WriteFile(path, []byte(`{"format":1,"entries":[{"ref":`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := submission.NewFile(path).Entries(context.Background()); err == nil {
		t.Error("a torn journal was read without an error")
	}
	if err := os.WriteFile(path, []byte(`{"format":9,"entries":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := submission.NewFile(path).Put(context.Background(), submission.Entry{Ref: "x"}); err == nil {
		t.Error("a journal of an unknown format was overwritten")
	}
}

func TestSubmissionStates(t *testing.T) {
	e := func(chunk int, s submission.State) submission.Entry {
		return submission.Entry{Ref: string(rune('a' + chunk)), Submission: "s", Chunk: chunk, Chunks: 2, State: s}
	}
	for _, tc := range []struct {
		entries []submission.Entry
		want    submission.State
	}{
		{[]submission.Entry{e(0, submission.Submitted), e(1, submission.Submitted)}, submission.Submitted},
		{[]submission.Entry{e(0, submission.Submitted)}, submission.Sending},
		{[]submission.Entry{e(0, submission.Submitted), e(1, submission.Failed)}, submission.Failed},
		{[]submission.Entry{e(1, submission.Planned), e(0, submission.Sending)}, submission.Sending},
	} {
		s := submission.Submissions(tc.entries)[0]
		if s.State() != tc.want || s.Entries[0].Chunk != 0 {
			t.Errorf("%v: %s", tc.entries, s.State())
		}
	}
}
