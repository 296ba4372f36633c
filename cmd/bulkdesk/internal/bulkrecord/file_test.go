//go:build !js

package bulkrecord_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/recordcachetest"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/bulkrecord"
)

func open(t *testing.T, dir string) *bulkrecord.File {
	t.Helper()
	f, err := bulkrecord.Open(dir, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestTheFileKeepsTheRecordOfBulks runs the record cache's suite on a
// single server's file (one process holds it: its other handle is
// itself).
func TestTheFileKeepsTheRecordOfBulks(t *testing.T) {
	recordcachetest.Run(t, func(t *testing.T) (submission.RecordCache, func() submission.RecordCache) {
		f := open(t, t.TempDir())
		return f, func() submission.RecordCache { return f }
	})
}

// TestTheFileOutlivesARestartAndIsOneServers: the record is read back
// after the server restarts, private to its owner, and a second process
// on the same folder is refused, naming the file.
func TestTheFileOutlivesARestartAndIsOneServers(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "state")
	f, err := bulkrecord.Open(dir, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	fps := make([]byte, 10_000*submission.FingerprintSize)
	fps[17] = 9
	rb := submission.RecordedBulk{BulkID: "b-1", Kind: "transfers", Status: bulkapi.Submitted, Seen: time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC), Fingerprints: fps}
	if err := f.Update(ctx, "https://api", []submission.RecordedBulk{rb}, nil); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	again := open(t, dir)
	got, err := again.Load(ctx, "https://api")
	if err != nil || len(got) != 1 || len(got["b-1"].Fingerprints) != len(fps) || got["b-1"].Fingerprints[17] != 9 || !got["b-1"].Seen.Equal(rb.Seen) {
		t.Fatalf("after a restart: %d bulks, %v", len(got), err)
	}
	st, err := os.Stat(filepath.Join(dir, bulkrecord.FileName))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("the file's mode: %v, %v", st.Mode(), err)
	}
	if _, err := bulkrecord.Open(dir, 100*time.Millisecond); err == nil || !strings.Contains(err.Error(), bulkrecord.FileName) {
		t.Errorf("a second server on the same folder: %v", err)
	}
}
