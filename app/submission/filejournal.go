package submission

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// fileFormat is the version of the journal file's layout.
const fileFormat = 1

// File is a journal in one JSON file, as the command line kept it before
// its journal moved to a database that imports it. Every change
// rewrites the file atomically (a new file, synced, renamed over the old),
// so a crash leaves the old journal or the new one, never a torn one. One
// process at a time should use a file.
type File struct {
	path string
	mu   sync.Mutex
}

// NewFile returns the journal kept at path; the file is created on the
// first Put.
func NewFile(path string) *File { return &File{path: path} }

// Path returns where the journal is kept.
func (f *File) Path() string { return f.path }

type fileDoc struct {
	Format  int     `json:"format"`
	Entries []Entry `json:"entries"`
}

func (f *File) load() ([]Entry, error) {
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

func (f *File) save(entries []Entry) error {
	data, err := json.Marshal(fileDoc{Format: fileFormat, Entries: entries})
	if err != nil {
		return err
	}
	dir := filepath.Dir(f.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("writing the journal: %w", err)
	}
	tmp, err := os.CreateTemp(dir, filepath.Base(f.path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing the journal: %w", err)
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("writing the journal: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("writing the journal: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing the journal: %w", err)
	}
	if err := os.Rename(tmp.Name(), f.path); err != nil {
		return fmt.Errorf("writing the journal: %w", err)
	}
	// Make the rename itself durable; not every system can sync a folder.
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// Put stores e durably.
func (f *File) Put(_ context.Context, e Entry) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	entries, err := f.load()
	if err != nil {
		return err
	}
	return f.save(upsert(entries, e))
}

// Entries returns every entry, oldest first.
func (f *File) Entries(context.Context) ([]Entry, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.load()
}

// Delete removes entries.
func (f *File) Delete(_ context.Context, refs ...string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	entries, err := f.load()
	if err != nil {
		return err
	}
	return f.save(without(entries, refs))
}
