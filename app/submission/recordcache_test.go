package submission_test

import (
	"path/filepath"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/recordcachetest"
)

func TestMemoryRecordKeepsTheCachesBehaviour(t *testing.T) {
	recordcachetest.Run(t, func(t *testing.T) (submission.RecordCache, func() submission.RecordCache) {
		c := submission.NewMemoryRecord()
		return c, func() submission.RecordCache { return c }
	})
}

func TestFileRecordKeepsTheCachesBehaviour(t *testing.T) {
	recordcachetest.Run(t, func(t *testing.T) (submission.RecordCache, func() submission.RecordCache) {
		path := filepath.Join(t.TempDir(), "journal.record.json")
		return submission.NewFileRecord(path), func() submission.RecordCache { return submission.NewFileRecord(path) }
	})
}
