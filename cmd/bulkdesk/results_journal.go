//go:build !js

package main

import (
	"errors"
	"io/fs"
	"os"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/journalstore"
)

// journalExists reports whether the journal path names was ever made,
// as its database or as an older bulkdesk's JSON file: a command that
// only reads the journal must not make one.
func journalExists(path string) bool {
	db, legacy := journalstore.Paths(path)
	return exists(db) || (legacy != "" && exists(legacy))
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, fs.ErrNotExist)
}
