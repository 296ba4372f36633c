package submission

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/schema"
)

// RepeatWindow is how far back a submission counts as the one an element
// repeats: bulks whose execution started within it, and every bulk not yet
// executed. Older ones are history: a monthly payment of the same amount
// to the same account is not a repeat of last month's.
const RepeatWindow = 35 * 24 * time.Hour

// A RecordedBulk is a bulk of the API's record with the fingerprints of its
// operations.
type RecordedBulk struct {
	BulkID string `json:"bulkId"`
	// Kind is the kind its operation names, "" when none does.
	Kind           string         `json:"kind,omitempty"`
	Status         bulkapi.Status `json:"status"`
	ExecutionStart int64          `json:"executionStart,omitempty"`
	// Seen is when the bulk was first listed here: the list gives no
	// submission time.
	Seen time.Time `json:"seen"`
	// Fingerprints are its operations', FingerprintSize bytes each in
	// sequence order; zero bytes for an operation that has none.
	Fingerprints []byte `json:"fingerprints,omitempty"`
}

// When is the bulk's time for an operator: its execution start, else when
// it was first seen.
func (b *RecordedBulk) When() time.Time {
	if b.ExecutionStart > 0 {
		return time.UnixMilli(b.ExecutionStart)
	}
	return b.Seen
}

// Counts reports whether a listed bulk's operations may run, or have run,
// within the repeat window: every bulk not yet executed (SUBMITTED) and
// every bulk whose execution started in the last RepeatWindow. A bulk
// cancelled or failed before it started never ran anything.
func Counts(b *bulkapi.BulkProcess, now time.Time) bool {
	if b.ExecutionStart <= 0 {
		return b.Status == bulkapi.Submitted || b.Status == ""
	}
	return now.Sub(time.UnixMilli(b.ExecutionStart)) <= RepeatWindow
}

// A RecordCache keeps the fingerprints of the API's bulks between checks.
// A submitted bulk's operations never change, so a bulk is fetched once.
// Scope names the API (its base URL): bulk ids are the API's.
type RecordCache interface {
	// Load returns the bulks kept for scope, by id.
	Load(ctx context.Context, scope string) (map[string]RecordedBulk, error)
	// Save replaces the bulks kept for scope.
	Save(ctx context.Context, scope string, bulks map[string]RecordedBulk) error
}

// MemoryRecord is a RecordCache in memory.
type MemoryRecord struct {
	mu     sync.Mutex
	scopes map[string]map[string]RecordedBulk
}

// NewMemoryRecord returns an empty RecordCache in memory.
func NewMemoryRecord() *MemoryRecord {
	return &MemoryRecord{scopes: make(map[string]map[string]RecordedBulk)}
}

// Load returns a copy of the scope's bulks.
func (m *MemoryRecord) Load(_ context.Context, scope string) (map[string]RecordedBulk, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return maps.Clone(m.scopes[scope]), nil
}

// Save keeps bulks for scope.
func (m *MemoryRecord) Save(_ context.Context, scope string, bulks map[string]RecordedBulk) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.scopes[scope] = maps.Clone(bulks)
	return nil
}

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

// Save replaces the scope's bulks.
func (f *FileRecord) Save(_ context.Context, scope string, bulks map[string]RecordedBulk) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	doc, err := f.load()
	if err != nil {
		return err
	}
	doc.Scopes[scope] = bulks
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

// A RecordAPI lists bulks and their operations; *bulkapi.Client is one.
type RecordAPI interface {
	ListAll(ctx context.Context, status bulkapi.Status) ([]bulkapi.BulkProcess, error)
	AllOperations(ctx context.Context, bulkID string, status bulkapi.OperationStatus) ([]bulkapi.Operation, error)
}

// A Record is the API's record of the identity's bulks, as far as a repeat
// check needs it.
type Record struct {
	// Listed is every bulk the list shows, by id, to tell the state of a
	// bulk the journal knows.
	Listed map[string]bulkapi.BulkProcess
	// Bulks are those that count (see Counts), with their fingerprints.
	Bulks []RecordedBulk
	// Fetched is how many bulks' operations were fetched; Cached how many
	// came from the cache.
	Fetched, Cached int
}

// fetchers is how many bulks' operations are fetched at once.
const fetchers = 4

// UpdateRecord lists the identity's bulks and fetches the operations of
// those that count and that the cache does not hold yet, then saves the
// cache: a second check fetches only the bulks made since. With kind set,
// bulks whose operation names another kind are neither fetched nor
// returned (the cache keeps those it has). onFetch, when set, is called
// after each bulk fetched, for a progress bar.
func UpdateRecord(ctx context.Context, api RecordAPI, cache RecordCache, scope string, now time.Time, kind *schema.Kind, onFetch func(done, total int)) (*Record, error) {
	list, err := api.ListAll(ctx, "")
	if err != nil {
		return nil, fmt.Errorf("listing the bulks: %w", err)
	}
	cached, err := cache.Load(ctx, scope)
	if err != nil {
		return nil, err
	}
	r := &Record{Listed: make(map[string]bulkapi.BulkProcess, len(list))}
	keep := make(map[string]RecordedBulk)
	changed := false
	var missing []RecordedBulk
	for _, b := range list {
		r.Listed[b.BulkID] = b
		if !Counts(&b, now) {
			continue
		}
		k, _ := KindOfOperation(b.Operation)
		rb, ok := cached[b.BulkID]
		if ok && rb.Kind == kindID(k) {
			if rb.Status != b.Status || rb.ExecutionStart != b.ExecutionStart {
				rb.Status, rb.ExecutionStart, changed = b.Status, b.ExecutionStart, true
			}
			keep[b.BulkID] = rb
			r.Cached++
			continue
		}
		if kind != nil && k != nil && k != kind {
			continue // another kind's bulk: fetched when a check needs it
		}
		missing = append(missing, RecordedBulk{BulkID: b.BulkID, Kind: kindID(k), Status: b.Status, ExecutionStart: b.ExecutionStart, Seen: now})
	}
	if len(keep) != len(cached) {
		changed = true // bulks that no longer count are dropped
	}
	if len(missing) > 0 {
		fetched, err := fetchAll(ctx, api, missing, onFetch)
		// Keep what was fetched even when a fetch failed: the next check
		// goes on from there.
		for _, rb := range fetched {
			keep[rb.BulkID] = rb
			changed = true
		}
		r.Fetched = len(fetched)
		if err != nil {
			if changed {
				_ = cache.Save(context.WithoutCancel(ctx), scope, keep)
			}
			return nil, err
		}
	}
	if changed {
		if err := cache.Save(ctx, scope, keep); err != nil {
			return nil, fmt.Errorf("keeping the record of bulks: %w", err)
		}
	}
	r.Bulks = make([]RecordedBulk, 0, len(keep))
	for _, b := range list {
		if rb, ok := keep[b.BulkID]; ok && (kind == nil || rb.Kind == "" || rb.Kind == kind.ID) {
			r.Bulks = append(r.Bulks, rb)
		}
	}
	return r, nil
}

// Remember keeps bulk b, whose operations were just read whole (a review
// reads them), in the cache with their fingerprints in sequence order: the
// next UpdateRecord need not read them again. A bulk kept already is left
// as it is.
func Remember(ctx context.Context, cache RecordCache, scope string, b *bulkapi.BulkProcess, fps []Fingerprint, now time.Time) error {
	kept, err := cache.Load(ctx, scope)
	if err != nil {
		return err
	}
	if _, ok := kept[b.BulkID]; ok {
		return nil
	}
	if kept == nil {
		kept = make(map[string]RecordedBulk)
	}
	k, _ := KindOfOperation(b.Operation)
	rb := RecordedBulk{BulkID: b.BulkID, Kind: kindID(k), Status: b.Status, ExecutionStart: b.ExecutionStart, Seen: now,
		Fingerprints: make([]byte, 0, len(fps)*FingerprintSize)}
	for _, fp := range fps {
		rb.Fingerprints = append(rb.Fingerprints, fp[:]...)
	}
	kept[b.BulkID] = rb
	if err := cache.Save(ctx, scope, kept); err != nil {
		return fmt.Errorf("keeping the record of bulks: %w", err)
	}
	return nil
}

func kindID(k *schema.Kind) string {
	if k == nil {
		return ""
	}
	return k.ID
}

// fetchAll fetches the operations of bulks, a few at a time, and returns
// those fetched.
func fetchAll(ctx context.Context, api RecordAPI, bulks []RecordedBulk, onFetch func(done, total int)) ([]RecordedBulk, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu    sync.Mutex
		out   []RecordedBulk
		first error
		wg    sync.WaitGroup
		next  = make(chan RecordedBulk)
	)
	for range min(fetchers, len(bulks)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f := newFingerprinter()
			for rb := range next {
				err := fetchOne(ctx, api, f, &rb)
				mu.Lock()
				if err != nil {
					if first == nil {
						first = fmt.Errorf("reading the operations of bulk %s: %w", rb.BulkID, err)
						cancel()
					}
				} else {
					out = append(out, rb)
					if onFetch != nil {
						onFetch(len(out), len(bulks))
					}
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, rb := range bulks {
		select {
		case next <- rb:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if first == nil && ctx.Err() != nil && len(out) < len(bulks) {
		first = ctx.Err()
	}
	return out, first
}

// fetchOne fetches a bulk's operations and fingerprints their payloads.
func fetchOne(ctx context.Context, api RecordAPI, f *fingerprinter, rb *RecordedBulk) error {
	ops, err := api.AllOperations(ctx, rb.BulkID, "")
	if err != nil {
		return err
	}
	k, _ := schema.Lookup(rb.Kind)
	n := 0
	for _, op := range ops {
		n = max(n, op.Sequence+1)
	}
	fps := make([]byte, FingerprintSize*n)
	for i := range ops {
		op := &ops[i]
		if op.Sequence < 0 {
			continue
		}
		kk := k
		if kk == nil { // the list did not say: the operation's path may
			kk, _ = KindOfOperation(op.Method + " " + op.Path)
		}
		if kk == nil {
			continue
		}
		if fp, ok := f.operation(kk, op); ok {
			copy(fps[op.Sequence*FingerprintSize:], fp[:])
		}
	}
	rb.Fingerprints = fps
	return nil
}
