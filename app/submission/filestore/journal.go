package filestore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"

	"github.com/bulkdesk/bulkdesk/app/submission"
)

// fileFormat is the version of the journal file's layout.
const fileFormat = 1

// Journal is a journal in one JSON file, as the command line kept it before
// its journal moved to a database that imports it. Every change
// rewrites the file atomically (a new file, synced, renamed over the old),
// so a crash leaves the old journal or the new one, never a torn one. One
// process at a time should use a file.
type Journal struct {
	path string
	mu   sync.Mutex
}

// NewJournal returns the journal kept at path; the file is created on the
// first Put.
func NewJournal(path string) *Journal { return &Journal{path: path} }

// Path returns where the journal is kept.
func (f *Journal) Path() string { return f.path }

type fileDoc struct {
	Format  int                `json:"format"`
	Entries []submission.Entry `json:"entries"`
}

func (f *Journal) load() ([]submission.Entry, error) {
	data, err := os.ReadFile(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the journal: %w", err)
	}
	var doc fileDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("reading the journal %s: %w", f.path, err)
	}
	if doc.Format != fileFormat {
		return nil, fmt.Errorf("the journal %s has format %d; this program reads format %d", f.path, doc.Format, fileFormat)
	}
	return doc.Entries, nil
}

func (f *Journal) save(entries []submission.Entry) error {
	data, err := json.Marshal(fileDoc{Format: fileFormat, Entries: entries})
	if err != nil {
		return err
	}
	if err := writeAtomic(f.path, data, 0o600); err != nil {
		return fmt.Errorf("writing the journal: %w", err)
	}
	return nil
}

// Put stores e durably.
func (f *Journal) Put(_ context.Context, e submission.Entry) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	entries, err := f.load()
	if err != nil {
		return err
	}
	return f.save(submission.WithEntry(entries, e))
}

// Entries returns every entry, oldest first.
func (f *Journal) Entries(context.Context) ([]submission.Entry, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.load()
}

// Delete removes entries.
func (f *Journal) Delete(_ context.Context, refs ...string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	entries, err := f.load()
	if err != nil {
		return err
	}
	return f.save(submission.WithoutEntries(entries, refs))
}
