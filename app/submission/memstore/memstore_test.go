package memstore_test

import (
	"testing"

	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/journaltest"
	"github.com/bulkdesk/bulkdesk/app/submission/memstore"
	"github.com/bulkdesk/bulkdesk/app/submission/recordcachetest"
)

func TestJournalKeepsTheJournalsBehaviour(t *testing.T) {
	m := memstore.NewJournal()
	journaltest.Run(t, func() submission.Journal { return m })
}

func TestRecordCacheKeepsTheCachesBehaviour(t *testing.T) {
	recordcachetest.Run(t, func(t *testing.T) (submission.RecordCache, func() submission.RecordCache) {
		c := memstore.NewRecordCache()
		return c, func() submission.RecordCache { return c }
	})
}
