//go:build !js

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/filestore"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/journalstore"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
)

// TestTwoSubmitsOnOneJournalKeepEveryRecord runs two submit processes at
// once on one journal, with different files. The sandbox holds the first
// request of each until the other's has arrived, so both are mid-way
// through their submissions together, journalling chunk after chunk; the
// journal must end with every chunk of both, submitted.
func TestTwoSubmitsOnOneJournalKeepEveryRecord(t *testing.T) {
	sb, err := sandbox.New(sandbox.Config{APIKey: sandbox.DefaultAPIKey, Token: sandbox.DefaultToken})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var posts atomic.Int32
	both := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			if posts.Add(1) == 2 {
				close(both)
			}
			select {
			case <-both:
			case <-ctx.Done():
				http.Error(w, "the other submit never came", http.StatusServiceUnavailable)
				return
			}
		}
		sb.ServeHTTP(w, r)
	}))
	defer srv.Close()

	dir := t.TempDir()
	journal := filepath.Join(dir, "journal.db")
	files := []string{filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")}
	sizes := []int{120, 150}
	if err := os.WriteFile(files[0], fixture.SampleBody(sizes[0]), 0o600); err != nil {
		t.Fatal(err)
	}
	other := bytes.ReplaceAll(fixture.SampleBody(sizes[1]), []byte(`"sample-`), []byte(`"other-`))
	if err := os.WriteFile(files[1], other, 0o600); err != nil {
		t.Fatal(err)
	}
	const chunk = 10

	outs := make([][]entryJSON, 2)
	var wg sync.WaitGroup
	for i, file := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.CommandContext(ctx, os.Args[0], "submit", "-kind", "transfers", "-api-url", srv.URL+"/multi",
				"-part-size", fmt.Sprint(chunk), "-journal", journal, "-format", "json", file)
			cmd.Env = append(os.Environ(), envChild+"=1", envAPIKey+"="+sandbox.DefaultAPIKey, envToken+"="+sandbox.DefaultToken)
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			if err := cmd.Run(); err != nil {
				t.Errorf("submit %s: %v\n%s", filepath.Base(file), err, errOut.String())
				return
			}
			if err := json.Unmarshal(out.Bytes(), &outs[i]); err != nil {
				t.Errorf("submit %s: %v\n%s", filepath.Base(file), err, out.String())
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}

	store, err := journalstore.Open(ctx, journal, journalstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	entries, err := store.Entries(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byRef := make(map[string]submission.Entry)
	for _, e := range entries {
		byRef[e.Ref] = e
	}
	want := sizes[0]/chunk + sizes[1]/chunk
	if len(entries) != want || len(byRef) != want {
		t.Fatalf("the journal holds %d entries (%d refs), want %d", len(entries), len(byRef), want)
	}
	for i, out := range outs {
		if len(out) != sizes[i]/chunk {
			t.Errorf("submit %d reported %d chunks", i, len(out))
		}
		for _, c := range out {
			e, ok := byRef[c.Ref]
			switch {
			case !ok:
				t.Errorf("chunk %d of submit %d (%s) is missing from the journal", c.Part, i, c.Ref)
			case e.State != submission.Submitted || e.BulkID == "" || e.BulkID != c.BulkID || e.Body != nil:
				t.Errorf("chunk %d of submit %d: journal has %s bulk %q body %d bytes, submit said bulk %q", c.Part, i, e.State, e.BulkID, len(e.Body), c.BulkID)
			}
		}
	}
	if subs := submission.Submissions(entries); len(subs) != 2 || subs[0].State() != submission.Submitted || subs[1].State() != submission.Submitted {
		t.Errorf("submissions %+v", subs)
	}
}

func runCLIWithInput(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestRetentionTakesDays(t *testing.T) {
	for in, want := range map[string]time.Duration{"35d": 35 * 24 * time.Hour, "72h": 72 * time.Hour, "0": 0} {
		var r retentionFlag
		if err := r.Set(in); err != nil || time.Duration(r) != want {
			t.Errorf("%s: %v %v", in, time.Duration(r), err)
		}
	}
	if retentionFlag(defaultRetention).String() != "35d" {
		t.Errorf("default %s", retentionFlag(defaultRetention))
	}
	for _, bad := range []string{"-1h", "xd", "soon"} {
		var r retentionFlag
		if r.Set(bad) == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// TestJournalForgetAsksAtATerminal answers forget's question as a person
// at a terminal does, which a script cannot (its standard input is never
// a terminal; journal.txt runs the rest of forget): no keeps the
// submission, yes forgets it, named by the start of its id.
func TestJournalForgetAsksAtATerminal(t *testing.T) {
	legacy := filepath.Join(t.TempDir(), "journal.json")
	const id = "40ae8d5b836d1c68"
	now := time.Now()
	e := submission.Entry{Ref: "bd-1", Submission: id, Kind: "transfers", Chunks: 1, PlanElements: 2, Source: "pay.csv",
		State: submission.Submitted, BulkID: "bulk-9", Created: now, Updated: now}
	if err := filestore.NewJournal(legacy).Put(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	t.Setenv(envJournal, legacy)
	old := stdinIsTerminal
	stdinIsTerminal = func(io.Reader) bool { return true }
	t.Cleanup(func() { stdinIsTerminal = old })

	code, _, errOut := runCLIWithInput(t, "\n", "journal", "forget", id[:8])
	if code != exitInvalid || !strings.Contains(errOut, "[y/N]") || !strings.Contains(errOut, "is kept") {
		t.Errorf("forget answered no: %d %s", code, errOut)
	}
	code, out, errOut := runCLIWithInput(t, "y\n", "journal", "forget", id[:8])
	if code != exitOK || !strings.Contains(out, "forgot submission "+id+" (1 entries)") {
		t.Errorf("forget answered yes: %d %s %s", code, out, errOut)
	}
}
