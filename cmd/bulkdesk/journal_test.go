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

func TestJournalListsAndForgetsSubmissions(t *testing.T) {
	api := startSandboxCommand(t)
	useSandboxCredentials(t)
	file := writeFile(t, "pay.json", string(fixture.SampleBody(25)))
	code, out, errOut := runCLI(t, "submit", "-kind", "transfers", "-api-url", api, "-part-size", "10", "-format", "json", file)
	if code != exitOK {
		t.Fatalf("submit: %d %s", code, errOut)
	}
	var chunks []entryJSON
	if err := json.Unmarshal([]byte(out), &chunks); err != nil {
		t.Fatal(err)
	}

	code, out, errOut = runCLI(t, "journal", "list", "-format", "json")
	var subs []submissionJSON
	if code != exitOK || json.Unmarshal([]byte(out), &subs) != nil || len(subs) != 1 {
		t.Fatalf("list: %d %s %s", code, out, errOut)
	}
	// The JSON names a bulk's share of the file as the text does: a part.
	if !strings.Contains(out, `"parts": 3,`) || !strings.Contains(out, `"part": 3,`) || strings.Contains(out, `"chunk`) {
		t.Errorf("list in JSON:\n%s", out)
	}
	s := subs[0]
	if s.File != "pay.json" || s.Kind != "transfers" || s.Parts != 3 || s.Elements != 25 || s.State != "submitted" || len(s.Entries) != 3 || s.Created.IsZero() {
		t.Errorf("listed %+v", s)
	}
	for i, e := range s.Entries {
		if e.Ref != chunks[i].Ref || e.BulkID != chunks[i].BulkID || e.State != "submitted" || e.BodyKept || e.Part != i+1 {
			t.Errorf("chunk %d listed %+v, submitted %+v", i+1, e, chunks[i])
		}
	}
	code, out, _ = runCLI(t, "journal", "list")
	if code != exitOK || !strings.Contains(out, "submission "+s.ID+": pay.json, transfers, 25 elements in 3 parts, 3 submitted: submitted; bulks "+chunks[0].BulkID) ||
		!strings.Contains(out, "part 3/3: 5 elements, submitted, bulk "+chunks[2].BulkID) || !strings.Contains(out, "ref "+chunks[1].Ref) {
		t.Errorf("text list:\n%s", out)
	}

	// Nobody at a terminal: refused without -yes.
	code, _, errOut = runCLIWithInput(t, "y\n", "journal", "forget", s.ID)
	if code != exitUsage || !strings.Contains(errOut, "not a terminal") || !strings.Contains(errOut, "-yes") {
		t.Errorf("forget without a terminal: %d %s", code, errOut)
	}
	old := stdinIsTerminal
	stdinIsTerminal = func(io.Reader) bool { return true }
	t.Cleanup(func() { stdinIsTerminal = old })
	code, _, errOut = runCLIWithInput(t, "\n", "journal", "forget", s.ID[:8])
	if code != exitInvalid || !strings.Contains(errOut, "[y/N]") || !strings.Contains(errOut, "is kept") {
		t.Errorf("forget answered no: %d %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, "journal", "forget", "-yes", "nosuch"); code != exitInvalid || !strings.Contains(errOut, "no submission nosuch") {
		t.Errorf("forget an unknown id: %d %s", code, errOut)
	}
	code, out, errOut = runCLIWithInput(t, "y\n", "journal", "forget", s.ID[:8])
	if code != exitOK || !strings.Contains(out, "forgot submission "+s.ID+" (3 entries)") {
		t.Errorf("forget: %d %s %s", code, out, errOut)
	}
	if code, out, _ := runCLI(t, "journal", "list"); code != exitOK || !strings.Contains(out, "no submissions") {
		t.Errorf("after forget: %s", out)
	}
	if code, _, _ := runCLI(t, "journal", "forget"); code != exitUsage {
		t.Errorf("forget without an id: %d", code)
	}
}

func TestJournalImportsAnOlderJSONJournal(t *testing.T) {
	dir := t.TempDir()
	legacy := filepath.Join(dir, "journal.json")
	now := time.Now()
	e := submission.Entry{Ref: "bd-1", Submission: "sub-1", Kind: "transfers", Chunks: 1, PlanElements: 2, Source: "old.xlsx",
		State: submission.Submitted, BulkID: "bulk-9", Created: now, Updated: now}
	if err := filestore.NewJournal(legacy).Put(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "journal", "list", "-journal", legacy)
	if code != exitOK || !strings.Contains(out, "sub-1: old.xlsx") || !strings.Contains(errOut, "imported 1 entries of the older journal") {
		t.Fatalf("list: %d %s %s", code, out, errOut)
	}
	// The database beside it holds them now; -journal-retention prunes.
	code, out, errOut = runCLI(t, "journal", "list", "-journal", filepath.Join(dir, "journal.db"), "-journal-retention", "1ns")
	if code != exitOK || !strings.Contains(out, "no submissions") || strings.Contains(errOut, "imported") || !strings.Contains(errOut, "forgot 1 submissions") {
		t.Errorf("list again: %d %s %s", code, out, errOut)
	}
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
