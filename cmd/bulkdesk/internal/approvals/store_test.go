//go:build !js

package approvals_test

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
)

func mustOpen(t *testing.T, dir string) *approvals.Store {
	t.Helper()
	s, err := approvals.Open(dir, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestARecordIsKeptAcrossReopening(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir)
	at := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	want := approvals.Record{BulkID: "b-1", SubmittedBy: "alice", SubmittedAt: at, API: "standard"}
	if stored, err := s.Put(want); err != nil || !stored {
		t.Fatalf("Put: %v, %v", stored, err)
	}
	if _, found, err := s.Get("b-2"); err != nil || found {
		t.Errorf("an unknown bulk: found %v, %v", found, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(s.Path()); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the file: %v, %v", fi, err)
	}

	s = mustOpen(t, dir)
	defer s.Close()
	got, found, err := s.Get("b-1")
	if err != nil || !found || got != want {
		t.Errorf("after reopening: %+v, %v, %v; want %+v", got, found, err, want)
	}
}

func TestTheFirstSubmitterStays(t *testing.T) {
	s := mustOpen(t, t.TempDir())
	defer s.Close()
	if _, err := s.Put(approvals.Record{BulkID: "b", SubmittedBy: "alice"}); err != nil {
		t.Fatal(err)
	}
	if stored, err := s.Put(approvals.Record{BulkID: "b", SubmittedBy: "bob"}); err != nil || stored {
		t.Errorf("a second submitter was stored: %v, %v", stored, err)
	}
	if r, _, _ := s.Get("b"); r.SubmittedBy != "alice" {
		t.Errorf("submitted by %q, want alice", r.SubmittedBy)
	}
	if _, err := s.Put(approvals.Record{BulkID: "c"}); err == nil {
		t.Error("a record without a user was stored")
	}
}

func TestConcurrentUse(t *testing.T) {
	s := mustOpen(t, t.TempDir())
	defer s.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for i := range 100 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			if _, err := s.Put(approvals.Record{BulkID: fmt.Sprint("b-", i), SubmittedBy: fmt.Sprint("u", i%3)}); err != nil {
				errs <- err
			}
		}()
		go func() {
			defer wg.Done()
			if _, _, err := s.Get(fmt.Sprint("b-", i)); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i := range 100 {
		if r, found, err := s.Get(fmt.Sprint("b-", i)); err != nil || !found || r.SubmittedBy != fmt.Sprint("u", i%3) {
			t.Errorf("b-%d: %+v, %v, %v", i, r, found, err)
		}
	}
}

// envLockedDir makes the test binary, run again, a second process that
// tries to open the record in that folder.
const envLockedDir = "APPROVALS_TEST_OPEN_DIR"

func TestMain(m *testing.M) {
	if dir := os.Getenv(envLockedDir); dir != "" {
		s, err := approvals.Open(dir, 300*time.Millisecond)
		if err != nil {
			fmt.Println(err)
			os.Exit(3)
		}
		s.Close()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestASecondProcessCannotOpenTheRecord(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir)
	second := func() (int, string) {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), envLockedDir+"="+dir)
		out, _ := cmd.CombinedOutput()
		return cmd.ProcessState.ExitCode(), string(out)
	}
	if code, out := second(); code != 3 || !strings.Contains(out, "in use by another process") || !strings.Contains(out, "-state-dir") {
		t.Errorf("while locked: exit %d, %q", code, out)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if code, out := second(); code != 0 {
		t.Errorf("after closing: exit %d, %q", code, out)
	}
}

// The first accepted execution is the approval; later ones, and bulks
// without a record, change nothing.
func TestTheFirstExecutionIsTheApproval(t *testing.T) {
	s := mustOpen(t, t.TempDir())
	at := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	if _, err := s.Put(approvals.Record{BulkID: "7", SubmittedBy: "alice", SubmittedAt: at, API: "standard"}); err != nil {
		t.Fatal(err)
	}
	for _, user := range []string{"bob", "carol"} {
		if err := s.Executed("7", user, at.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Executed("8", "bob", at); err != nil {
		t.Fatal(err)
	}
	r, _, err := s.Get("7")
	if err != nil || r.ExecutedBy != "bob" || r.ExecutedAt == nil || !r.ExecutedAt.Equal(at.Add(time.Hour)) || r.SubmittedBy != "alice" {
		t.Errorf("record %+v, %v", r, err)
	}
	if _, found, _ := s.Get("8"); found {
		t.Error("an execution made a record of an unknown bulk")
	}
}
