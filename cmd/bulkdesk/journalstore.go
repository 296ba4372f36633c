//go:build !js

package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/journalstore"
)

// openJournal opens the journal database named by path (see
// journalstore.Paths: a name ending in .json is an older bulkdesk's
// journal, imported once into the database beside it), pruning what has
// not changed for retention (0 keeps everything).
func openJournal(ctx context.Context, path string, retention time.Duration, stderr io.Writer) (cliJournal, error) {
	db, legacy := journalstore.Paths(path)
	s, err := journalstore.Open(ctx, db, journalstore.Options{Legacy: legacy, Retention: retention})
	if err != nil {
		return nil, err
	}
	if n := s.Imported(); n > 0 {
		fmt.Fprintf(stderr, "imported %d entries of the older journal %s into %s; the old file is no longer read\n", n, legacy, db)
	}
	if n := s.Pruned(); n > 0 {
		fmt.Fprintf(stderr, "journal: forgot %d submissions unchanged for over %s (-journal-retention)\n", n, retentionFlag(retention))
	}
	return s, nil
}
