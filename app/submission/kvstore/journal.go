package kvstore

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/bulkdesk/bulkdesk/app/submission"
)

// A KeyValue stores strings by key, as the browser's localStorage does. A
// Set must not return before the value is stored; a store that is full
// says so with an error.
type KeyValue interface {
	Get(ctx context.Context, key string) (value string, found bool, err error)
	Set(ctx context.Context, key, value string) error
}

// KeyPrefix starts the key of every journal kept in a KeyValue store:
// the journal called name is under KeyPrefix + name.
const KeyPrefix = "bulkdesk.journal."

// Journal keeps a journal as one JSON item of a KeyValue store:
// the browser's localStorage where IndexedDB is missing, reached directly
// on the page or, from the console's Web Worker (which has no
// localStorage), through the page.
type Journal struct {
	kv  KeyValue
	key string
	mu  sync.Mutex
}

// NewJournal returns the journal called name in kv.
func NewJournal(kv KeyValue, name string) *Journal {
	return &Journal{kv: kv, key: KeyPrefix + name}
}

func (j *Journal) load(ctx context.Context) ([]submission.Entry, error) {
	v, found, err := j.kv.Get(ctx, j.key)
	if err != nil {
		return nil, fmt.Errorf("reading the journal: %w", err)
	}
	if !found {
		return nil, nil
	}
	var entries []submission.Entry
	if err := json.Unmarshal([]byte(v), &entries); err != nil {
		return nil, fmt.Errorf("reading the journal: %w", err)
	}
	return entries, nil
}

func (j *Journal) save(ctx context.Context, entries []submission.Entry) error {
	data, err := json.Marshal(entries)
	if err != nil {
		return err
	}
	return j.kv.Set(ctx, j.key, string(data))
}

// Put stores e. A store of a few megabytes, like localStorage, may not
// take every entry with its kept body: then the bodies go (resuming then
// needs the file again), then the fingerprints of submitted bulks (the
// repeat check then relies on the API's record of them), never the
// entries themselves.
func (j *Journal) Put(ctx context.Context, e submission.Entry) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	entries, err := j.load(ctx)
	if err != nil {
		return err
	}
	entries = submission.WithEntry(entries, e)
	if err := j.save(ctx, entries); err == nil {
		return nil
	}
	for i := range entries {
		entries[i].Body = nil
	}
	if err := j.save(ctx, entries); err == nil {
		return nil
	}
	for i := range entries {
		entries[i].Fingerprints = nil
	}
	if err := j.save(ctx, entries); err != nil {
		return fmt.Errorf("the journal does not fit in its storage: %w", err)
	}
	return nil
}

// Entries returns every entry, oldest first.
func (j *Journal) Entries(ctx context.Context) ([]submission.Entry, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.load(ctx)
}

// Delete removes entries.
func (j *Journal) Delete(ctx context.Context, refs ...string) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	entries, err := j.load(ctx)
	if err != nil {
		return err
	}
	return j.save(ctx, submission.WithoutEntries(entries, refs))
}
