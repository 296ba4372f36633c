//go:build !js

package postgres_test

import (
	"fmt"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/recordcachetest"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/pgtest"
)

// TestTheDatabaseKeepsTheRecordOfBulks runs the record cache's suite on
// the shared database, each subtest in a database of its own, a second
// handle being a second server's connection.
func TestTheDatabaseKeepsTheRecordOfBulks(t *testing.T) {
	dsn := pgtest.Start(t)
	n := 0
	recordcachetest.Run(t, func(t *testing.T) (submission.RecordCache, func() submission.RecordCache) {
		n++
		name := pgtest.NewDatabase(t, dsn, fmt.Sprint("bulk_record_", n))
		return open(t, name).BulkRecord(), func() submission.RecordCache { return open(t, name).BulkRecord() }
	})
}
