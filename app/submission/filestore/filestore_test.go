package filestore_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/filestore"
	"github.com/bulkdesk/bulkdesk/app/submission/journaltest"
	"github.com/bulkdesk/bulkdesk/app/submission/recordcachetest"
)

func TestJournalKeepsTheJournalsBehaviour(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state", "journal.json")
	journaltest.Run(t, func() submission.Journal { return filestore.NewJournal(path) })
	left, _ := os.ReadDir(filepath.Dir(path))
	if len(left) != 1 {
		t.Errorf("the journal's folder holds %d files, want only the journal", len(left))
	}
	if err := os.WriteFile(path, []byte(`{"format":1,"entries":[{"ref":`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := filestore.NewJournal(path).Entries(context.Background()); err == nil {
		t.Error("a torn journal was read without an error")
	}
	if err := os.WriteFile(path, []byte(`{"format":9,"entries":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := filestore.NewJournal(path).Put(context.Background(), submission.Entry{Ref: "x"}); err == nil {
		t.Error("a journal of an unknown format was overwritten")
	}
}

func TestRecordCacheKeepsTheCachesBehaviour(t *testing.T) {
	recordcachetest.Run(t, func(t *testing.T) (submission.RecordCache, func() submission.RecordCache) {
		path := filepath.Join(t.TempDir(), "journal.record.json")
		return filestore.NewRecordCache(path), func() submission.RecordCache { return filestore.NewRecordCache(path) }
	})
}
