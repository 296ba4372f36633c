package main

import (
	"fmt"

	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/bulkrecord"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/postgres"
)

// openBulkRecord opens the repeat check's record of bulks: in db when
// serve has one (-store), else under -state-dir; nil when it has neither
// or proxies no API. The caller closes it when it is an io.Closer.
func (cfg serveConfig) openBulkRecord(db *postgres.DB) (submission.RecordCache, error) {
	switch {
	case cfg.apiURL == "" && !cfg.sandbox:
		return nil, nil
	case db != nil:
		return db.BulkRecord(), nil
	case cfg.stateDir != "":
		f, err := bulkrecord.Open(cfg.stateDir, 0)
		if err != nil {
			return nil, fmt.Errorf("-state-dir: %w", err)
		}
		return f, nil
	}
	return nil, nil
}
