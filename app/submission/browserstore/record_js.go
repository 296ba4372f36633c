//go:build js && wasm

package browserstore

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"sync"
	"syscall/js"

	"github.com/bulkdesk/bulkdesk/app/idb"
	"github.com/bulkdesk/bulkdesk/app/submission"
)

// RecordCache is the record of the API's bulks for the console: one IndexedDB row per
// bulk (its fingerprints as a Uint8Array), in its own database, and a copy
// in memory, read once, that later checks use.
type RecordCache struct {
	idb  js.Value
	name string

	mu     sync.Mutex
	store  *Journal // opened on first use
	memory bool     // IndexedDB refused to open: memory only
	scopes map[string]map[string]submission.RecordedBulk
}

// NewRecordCache returns the record kept in the IndexedDB database
// called name of idb (an IDBFactory); it is opened on first use.
func NewRecordCache(idb js.Value, name string) *RecordCache {
	return &RecordCache{idb: idb, name: name, scopes: make(map[string]map[string]submission.RecordedBulk)}
}

func rowKey(scope, id string) string { return scope + "\n" + id }

// open opens the database; nil when IndexedDB refuses (blocked by the
// browser's settings): the record is then kept in memory, a cache that is
// fetched again after a reload.
func (r *RecordCache) open(ctx context.Context) *Journal {
	if r.store != nil || r.memory {
		return r.store
	}
	db, err := idb.Open(ctx, r.idb, r.name, idbVersion, idbStore, map[string]any{"keyPath": "ref"})
	if err != nil {
		r.memory = true
		return nil
	}
	r.store = &Journal{name: r.name, db: db}
	return r.store
}

// Load returns the scope's bulks: from memory once read.
func (r *RecordCache) Load(ctx context.Context, scope string) (map[string]submission.RecordedBulk, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if got, ok := r.scopes[scope]; ok {
		return maps.Clone(got), nil
	}
	b := r.open(ctx)
	if b == nil {
		return map[string]submission.RecordedBulk{}, nil
	}
	res, err := b.tx(ctx, "readonly", func(s js.Value) js.Value { return s.Call("getAll") })
	if err != nil {
		return nil, err
	}
	got := make(map[string]submission.RecordedBulk)
	for i := range res.Length() {
		row := res.Index(i)
		sc, _, _ := strings.Cut(row.Get("ref").String(), "\n")
		if sc != scope {
			continue
		}
		var rb submission.RecordedBulk
		if json.Unmarshal([]byte(row.Get("entry").String()), &rb) != nil {
			continue
		}
		// The fingerprints are kept as bytes, not base64 in the JSON: a
		// million of them are copied in milliseconds, where decoding
		// their base64 takes a third of a second in WebAssembly.
		if fps := row.Get("fingerprints"); idb.Truthy(fps) {
			rb.Fingerprints = make([]byte, fps.Get("length").Int())
			js.CopyBytesToGo(rb.Fingerprints, fps)
		}
		got[rb.BulkID] = rb
	}
	r.scopes[scope] = got
	return maps.Clone(got), nil
}

// Update writes the rows of put and deletes those of drop.
func (r *RecordCache) Update(ctx context.Context, scope string, put []submission.RecordedBulk, drop []string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	// The copy in memory follows, once read: a scope not read yet is read
	// whole from the database by the next Load.
	if got, ok := r.scopes[scope]; ok {
		r.scopes[scope] = submission.UpdateBulks(got, put, drop)
	}
	b := r.open(ctx)
	if b == nil {
		if _, ok := r.scopes[scope]; !ok {
			r.scopes[scope] = submission.UpdateBulks(nil, put, drop)
		}
		return nil
	}
	puts := make([]map[string]any, 0, len(put))
	for _, rb := range put {
		fps := rb.Fingerprints
		rb.Fingerprints = nil
		data, err := json.Marshal(rb)
		if err != nil {
			return err
		}
		arr := js.Global().Get("Uint8Array").New(len(fps))
		js.CopyBytesToJS(arr, fps)
		puts = append(puts, map[string]any{"ref": rowKey(scope, rb.BulkID), "entry": string(data), "fingerprints": arr})
	}
	if len(puts) == 0 && len(drop) == 0 {
		return nil
	}
	_, err := b.tx(ctx, "readwrite", func(s js.Value) js.Value {
		for _, p := range puts {
			s.Call("put", p)
		}
		for _, id := range drop {
			s.Call("delete", rowKey(scope, id))
		}
		return js.Undefined()
	})
	if err != nil {
		return fmt.Errorf("keeping the record of bulks: %w", err)
	}
	return nil
}
