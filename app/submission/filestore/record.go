package filestore

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

	"github.com/bulkdesk/bulkdesk/app/submission"
)

// recordFormat is the version of the record file's layout.
const recordFormat = 1

// RecordCache is a record of the API's bulks in one JSON file, readable by
// its owner only (mode 0600), written atomically as the journal is.
type RecordCache struct {
	path string
	mu   sync.Mutex
}

// NewRecordCache returns the record kept at path.
func NewRecordCache(path string) *RecordCache { return &RecordCache{path: path} }

// RecordPathFor returns where the record of a journal file is kept: next to
// it, "journal.json" → "journal.record.json".
func RecordPathFor(journal string) string {
	return strings.TrimSuffix(journal, filepath.Ext(journal)) + ".record.json"
}

// Path returns where the record is kept.
func (f *RecordCache) Path() string { return f.path }

type recordDoc struct {
	Format int                                           `json:"format"`
	Scopes map[string]map[string]submission.RecordedBulk `json:"scopes"`
}

func (f *RecordCache) load() (recordDoc, error) {
	doc := recordDoc{Format: recordFormat, Scopes: map[string]map[string]submission.RecordedBulk{}}
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
func (f *RecordCache) Load(_ context.Context, scope string) (map[string]submission.RecordedBulk, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	doc, err := f.load()
	if err != nil {
		return nil, err
	}
	return doc.Scopes[scope], nil
}

// Update keeps put and forgets drop, rewriting the file.
func (f *RecordCache) Update(_ context.Context, scope string, put []submission.RecordedBulk, drop []string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	doc, err := f.load()
	if err != nil {
		return err
	}
	doc.Scopes[scope] = submission.UpdateBulks(doc.Scopes[scope], put, drop)
	data, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	return writeAtomic(f.path, data, 0o600)
}
