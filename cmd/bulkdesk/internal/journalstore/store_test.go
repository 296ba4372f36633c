//go:build !js

package journalstore

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.etcd.io/bbolt"

	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/filestore"
)

func open(t *testing.T, path string, o Options) *Store {
	t.Helper()
	s, err := Open(context.Background(), path, o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func entry(sub string, chunk int, state submission.State, updated time.Time) submission.Entry {
	return submission.Entry{
		Ref: fmt.Sprintf("bd-%s-%d", sub, chunk), Submission: sub, Kind: "transfers", Chunk: chunk, Chunks: 2,
		State: state, Created: updated, Updated: updated, Body: json.RawMessage(`{"transfers":[{"amount":1}]}`),
	}
}

func TestEntriesLastAcrossReopeningInTheOrderFirstWritten(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state", "journal.db")
	now := time.Now().UTC().Truncate(time.Second)
	s := open(t, path, Options{})
	for _, e := range []submission.Entry{entry("b", 0, submission.Planned, now), entry("a", 0, submission.Planned, now), entry("b", 1, submission.Planned, now)} {
		if err := s.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	e := entry("a", 0, submission.Failed, now)
	e.LastError = "503"
	if err := s.Put(ctx, e); err != nil { // replaced in place
		t.Fatal(err)
	}

	again := open(t, path, Options{Retention: DefaultRetention})
	got, err := again.Entries(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var refs []string
	for _, e := range got {
		refs = append(refs, e.Ref)
	}
	if strings.Join(refs, " ") != "bd-b-0 bd-a-0 bd-b-1" {
		t.Fatalf("entries %v", refs)
	}
	if got[1].State != submission.Failed || got[1].LastError != "503" || string(got[1].Body) == "" || !got[1].Updated.Equal(now) {
		t.Errorf("entry after reopening: %+v", got[1])
	}
	if err := again.Delete(ctx, "bd-b-0", "bd-unknown"); err != nil {
		t.Fatal(err)
	}
	if got, _ := open(t, path, Options{}).Entries(ctx); len(got) != 2 || got[0].Ref != "bd-a-0" {
		t.Errorf("after Delete: %+v", got)
	}
}

func TestTheDatabaseIsReadableByItsOwnerOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new")
	path := filepath.Join(dir, "journal.db")
	if err := open(t, path, Options{}).Put(context.Background(), entry("a", 0, submission.Planned, time.Now())); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("journal mode %v, want 0600", fi.Mode().Perm())
	}
	if di, _ := os.Stat(dir); di.Mode().Perm() != 0o700 {
		t.Errorf("folder mode %v, want 0700", di.Mode().Perm())
	}
	// A journal others can read is made private when opened.
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	open(t, path, Options{})
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("journal mode %v after reopening, want 0600", fi.Mode().Perm())
	}
}

func TestTheBodyGoesOnceTheBulkIsConfirmed(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "j.db"), Options{})
	e := entry("a", 0, submission.Sending, time.Now())
	if err := s.Put(ctx, e); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Entries(ctx); len(got[0].Body) == 0 {
		t.Fatal("the body of a chunk being sent was dropped")
	}
	e.State, e.BulkID = submission.Submitted, "bulk-1"
	if err := s.Put(ctx, e); err != nil {
		t.Fatal(err)
	}
	got, _ := s.Entries(ctx)
	if len(got) != 1 || got[0].Body != nil || got[0].BulkID != "bulk-1" {
		t.Errorf("submitted entry %+v", got)
	}
}

func TestSubmissionsOlderThanTheRetentionArePrunedWhole(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "j.db")
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	s := open(t, path, Options{})
	old, recent := now.Add(-40*24*time.Hour), now.Add(-30*24*time.Hour)
	for _, e := range []submission.Entry{
		entry("old", 0, submission.Submitted, old), entry("old", 1, submission.Submitted, old),
		// One chunk changed recently: the submission stays whole.
		entry("mixed", 0, submission.Submitted, old), entry("mixed", 1, submission.Failed, recent),
		entry("new", 0, submission.Planned, now),
	} {
		if err := s.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	s = open(t, path, Options{Retention: DefaultRetention, Now: func() time.Time { return now }})
	if s.Pruned() != 1 {
		t.Errorf("pruned %d submissions, want 1", s.Pruned())
	}
	got, _ := s.Entries(ctx)
	var subs []string
	for _, e := range got {
		subs = append(subs, e.Submission)
	}
	if strings.Join(subs, " ") != "mixed mixed new" {
		t.Errorf("left %v", subs)
	}
	if n, err := s.Forget(ctx, "mixed"); n != 2 || err != nil {
		t.Errorf("Forget: %d %v", n, err)
	}
	if got, _ := s.Entries(ctx); len(got) != 1 || got[0].Submission != "new" {
		t.Errorf("after Forget: %+v", got)
	}
}

// Two handles on one file, as two processes would have: every Put of each
// is kept. flock locks are per open file, so two handles in one process
// exclude each other as two processes do.
func TestConcurrentPutsFromTwoHandlesKeepEveryEntry(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "j.db")
	handles := []*Store{open(t, path, Options{}), open(t, path, Options{})}
	const each = 40
	var wg sync.WaitGroup
	errs := make(chan error, 2*each)
	for h, s := range handles {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				e := entry(fmt.Sprintf("h%d", h), i, submission.Planned, time.Now())
				if err := s.Put(ctx, e); err != nil {
					errs <- err
					return
				}
				e.State = submission.Sending
				if err := s.Put(ctx, e); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	got, err := handles[0].Entries(ctx)
	if err != nil {
		t.Fatal(err)
	}
	seen := make(map[string]bool)
	for _, e := range got {
		if e.State != submission.Sending {
			t.Errorf("%s is %s", e.Ref, e.State)
		}
		seen[e.Ref] = true
	}
	if len(got) != 2*each || len(seen) != 2*each {
		t.Errorf("%d entries (%d refs), want %d", len(got), len(seen), 2*each)
	}
}

func TestAnOldJSONJournalIsImportedOnce(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, legacy := Paths(filepath.Join(dir, "journal.json"))
	if db != filepath.Join(dir, "journal.db") || legacy != filepath.Join(dir, "journal.json") {
		t.Fatalf("Paths: %s %s", db, legacy)
	}
	if d, l := Paths(db); d != db || l != legacy {
		t.Fatalf("Paths(%s): %s %s", db, d, l)
	}
	now := time.Now().UTC()
	old := filestore.NewJournal(legacy)
	for i := range 2 {
		if err := old.Put(ctx, entry("a", i, submission.Submitted, now)); err != nil {
			t.Fatal(err)
		}
	}
	s := open(t, db, Options{Legacy: legacy})
	if s.Imported() != 2 {
		t.Fatalf("imported %d", s.Imported())
	}
	if err := s.Delete(ctx, "bd-a-0"); err != nil {
		t.Fatal(err)
	}
	// Opened again: the old file is not read again.
	s = open(t, db, Options{Legacy: legacy})
	if got, _ := s.Entries(ctx); s.Imported() != 0 || len(got) != 1 {
		t.Errorf("second open imported %d, holds %d", s.Imported(), len(got))
	}
	if _, err := os.Stat(legacy); err != nil {
		t.Errorf("the old journal was not left in place: %v", err)
	}
}

func TestAJSONFileIsNotTakenForADatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal")
	if err := os.WriteFile(path, []byte(`{"format":1,"entries":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), path, Options{})
	if err == nil || !strings.Contains(err.Error(), "not a bulkdesk journal database") {
		t.Errorf("err = %v", err)
	}
}

func TestAWaitForALockedJournalEnds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.db")
	s := open(t, path, Options{LockWait: 300 * time.Millisecond})
	held := make(chan struct{})
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- s.update(context.Background(), func(*bbolt.Tx) error {
			close(held)
			<-release
			return nil
		})
	}()
	<-held
	err := s.Put(context.Background(), entry("a", 0, submission.Planned, time.Now()))
	close(release)
	if err == nil || !strings.Contains(err.Error(), "stayed locked by another process") {
		t.Errorf("Put on a locked journal: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := s.Put(context.Background(), entry("a", 0, submission.Planned, time.Now())); err != nil {
		t.Errorf("Put once released: %v", err)
	}
}

func TestASubmittedEntryIsNotTakenBack(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "j.db"), Options{})
	e := entry("a", 0, submission.Submitted, time.Now())
	e.BulkID = "bulk-1"
	if err := s.Put(ctx, e); err != nil {
		t.Fatal(err)
	}
	stale := entry("a", 0, submission.Sending, time.Now())
	if err := s.Put(ctx, stale); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Entries(ctx); len(got) != 1 || got[0].State != submission.Submitted || got[0].BulkID != "bulk-1" {
		t.Errorf("after a stale Put: %+v", got)
	}
}

func TestAWaitForALockedJournalEndsWithItsContext(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.db")
	s := open(t, path, Options{})
	held, release, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		done <- s.update(context.Background(), func(*bbolt.Tx) error {
			close(held)
			<-release
			return nil
		})
	}()
	<-held
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := s.Entries(ctx)
	close(release)
	if err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Errorf("Entries with a cancelled context on a locked journal: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
