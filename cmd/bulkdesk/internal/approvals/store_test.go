//go:build !js

package approvals_test

import (
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals/recordstest"
)

func mustOpen(t *testing.T, dir string) *approvals.Store {
	t.Helper()
	s, err := approvals.Open(dir, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestTheFileKeepsRecords runs the records' suite on this server's file.
func TestTheFileKeepsRecords(t *testing.T) {
	recordstest.Run(t, func(t *testing.T) approvals.Records {
		s := mustOpen(t, t.TempDir())
		t.Cleanup(func() { s.Close() })
		return s
	})
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
	if err != nil || !found || !reflect.DeepEqual(got, want) {
		t.Errorf("after reopening: %+v, %v, %v; want %+v", got, found, err, want)
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
