package submission

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
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

// KeyValueJournal keeps a journal as one JSON item of a KeyValue store:
// the browser's localStorage where IndexedDB is missing, reached directly
// on the page or, from the console's Web Worker (which has no
// localStorage), through the page.
type KeyValueJournal struct {
	kv  KeyValue
	key string
	mu  sync.Mutex
}

// NewKeyValue returns the journal called name in kv.
func NewKeyValue(kv KeyValue, name string) *KeyValueJournal {
	return &KeyValueJournal{kv: kv, key: KeyPrefix + name}
}

func (j *KeyValueJournal) load(ctx context.Context) ([]Entry, error) {
	v, found, err := j.kv.Get(ctx, j.key)
	if err != nil {
		return nil, fmt.Errorf("reading the journal: %w", err)
	}
	if !found {
		return nil, nil
	}
	var entries []Entry
	if err := json.Unmarshal([]byte(v), &entries); err != nil {
		return nil, fmt.Errorf("reading the journal: %w", err)
	}
	return entries, nil
}

func (j *KeyValueJournal) save(ctx context.Context, entries []Entry) error {
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
func (j *KeyValueJournal) Put(ctx context.Context, e Entry) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	entries, err := j.load(ctx)
	if err != nil {
		return err
	}
	entries = upsert(entries, e)
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
func (j *KeyValueJournal) Entries(ctx context.Context) ([]Entry, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.load(ctx)
}

// Delete removes entries.
func (j *KeyValueJournal) Delete(ctx context.Context, refs ...string) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	entries, err := j.load(ctx)
	if err != nil {
		return err
	}
	return j.save(ctx, without(entries, refs))
}
