package submission

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// recordFormat is the version of the record file's layout.
const recordFormat = 1

// FileRecord is a RecordCache in one JSON file, readable by its owner only
// (mode 0600), written atomically as the journal is.
type FileRecord struct {
	path string
	mu   sync.Mutex
}

// NewFileRecord returns the RecordCache kept at path.
func NewFileRecord(path string) *FileRecord { return &FileRecord{path: path} }

// RecordPathFor returns where the record of a journal file is kept: next to
// it, "journal.json" → "journal.record.json".
func RecordPathFor(journal string) string {
	return strings.TrimSuffix(journal, filepath.Ext(journal)) + ".record.json"
}

// Path returns where the record is kept.
func (f *FileRecord) Path() string { return f.path }

type recordDoc struct {
	Format int                                `json:"format"`
	Scopes map[string]map[string]RecordedBulk `json:"scopes"`
}

func (f *FileRecord) load() (recordDoc, error) {
	doc := recordDoc{Format: recordFormat, Scopes: map[string]map[string]RecordedBulk{}}
	data, err := os.ReadFile(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return doc, nil
	}
	if err != nil {
		return doc, fmt.Errorf("reading the record of bulks: %w", err)
	}
	var got recordDoc
	if err := json.Unmarshal(data, &got); err != nil || got.Format != recordFormat {
		// A cache: a file it cannot read is fetched again.
		return doc, nil
	}
	if got.Scopes != nil {
		doc.Scopes = got.Scopes
	}
	return doc, nil
}

// Load returns the scope's bulks.
func (f *FileRecord) Load(_ context.Context, scope string) (map[string]RecordedBulk, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	doc, err := f.load()
	if err != nil {
		return nil, err
	}
	return doc.Scopes[scope], nil
}

// Update keeps put and forgets drop, rewriting the file.
func (f *FileRecord) Update(_ context.Context, scope string, put []RecordedBulk, drop []string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	doc, err := f.load()
	if err != nil {
		return err
	}
	doc.Scopes[scope] = applyUpdate(doc.Scopes[scope], put, drop)
	data, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	return writeAtomic(f.path, data, 0o600)
}

// writeAtomic writes data to a new file, synced and renamed over path.
func writeAtomic(path string, data []byte, mode os.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
