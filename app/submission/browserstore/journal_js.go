//go:build js && wasm

package browserstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"syscall/js"

	"github.com/bulkdesk/bulkdesk/app/idb"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/kvstore"
)

// Journal is the journal of the console: entries in an IndexedDB object
// store, or in one localStorage item where IndexedDB is missing (private
// windows of some browsers, tests under Node with a storage shim).
//
// Its methods wait for the browser's callbacks: call them from a goroutine
// (go-app's ctx.Async), never straight from an event handler.
type Journal struct {
	name string
	db   js.Value         // an IDBDatabase, or undefined
	ls   *kvstore.Journal // in localStorage, when db is undefined
	mu   sync.Mutex
}

const (
	idbStore   = "entries"
	idbVersion = 1
)

// Open opens the journal called name (one per console origin is
// usual), in IndexedDB if the browser has it, else in localStorage.
func Open(ctx context.Context, name string) (*Journal, error) {
	return OpenStorage(ctx, name, js.Global().Get("indexedDB"), js.Global().Get("localStorage"))
}

// OpenStorage is Open with the storage objects given: an
// IDBFactory and a Storage, either undefined when missing. Tests pass
// stand-ins.
func OpenStorage(ctx context.Context, name string, indexedDB, storage js.Value) (*Journal, error) {
	b := &Journal{name: name}
	if idb.Truthy(indexedDB) {
		db, err := idb.Open(ctx, indexedDB, name, idbVersion, idbStore, map[string]any{"keyPath": "ref"})
		if err == nil {
			b.db = db
			return b, nil
		}
		// An IndexedDB that refuses to open (blocked by settings) is as
		// good as none: fall back.
		if !idb.Truthy(storage) {
			return nil, fmt.Errorf("opening the journal: %w", err)
		}
	}
	if !idb.Truthy(storage) {
		return nil, errors.New("opening the journal: this browser has neither IndexedDB nor localStorage")
	}
	b.ls = kvstore.NewJournal(localStorage{storage}, name)
	return b, nil
}

// Backend names the storage in use: "indexedDB" or "localStorage".
func (b *Journal) Backend() string {
	if idb.Truthy(b.db) {
		return "indexedDB"
	}
	return "localStorage"
}

// tx runs f on the object store in a transaction and waits until the
// transaction is committed ("strict" durability where the browser has it).
func (b *Journal) tx(ctx context.Context, mode string, f func(store js.Value) js.Value) (js.Value, error) {
	res, err := idb.Tx(ctx, b.db, idbStore, mode, f)
	if err != nil {
		return js.Undefined(), fmt.Errorf("journal: %w", err)
	}
	return res, nil
}

// Put stores e, durably once it returns.
func (b *Journal) Put(ctx context.Context, e submission.Entry) error {
	if !idb.Truthy(b.db) {
		return b.ls.Put(ctx, e)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	data, err := json.Marshal(e)
	if err != nil {
		return err
	}
	_, err = b.tx(ctx, "readwrite", func(s js.Value) js.Value {
		return s.Call("put", map[string]any{"ref": e.Ref, "entry": string(data)})
	})
	return err
}

// Entries returns every entry, oldest first.
func (b *Journal) Entries(ctx context.Context) ([]submission.Entry, error) {
	if !idb.Truthy(b.db) {
		return b.ls.Entries(ctx)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	res, err := b.tx(ctx, "readonly", func(s js.Value) js.Value { return s.Call("getAll") })
	if err != nil {
		return nil, err
	}
	out := make([]submission.Entry, 0, res.Length())
	for i := range res.Length() {
		var e submission.Entry
		if err := json.Unmarshal([]byte(res.Index(i).Get("entry").String()), &e); err != nil {
			return nil, fmt.Errorf("reading the journal: %w", err)
		}
		out = append(out, e)
	}
	slices.SortStableFunc(out, func(a, b submission.Entry) int { return a.Created.Compare(b.Created) })
	return out, nil
}

// Delete removes entries.
func (b *Journal) Delete(ctx context.Context, refs ...string) error {
	if !idb.Truthy(b.db) {
		return b.ls.Delete(ctx, refs...)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	_, err := b.tx(ctx, "readwrite", func(s js.Value) js.Value {
		for _, r := range refs {
			s.Call("delete", r)
		}
		return js.Undefined()
	})
	return err
}

// localStorage is the browser's localStorage as a KeyValue.
type localStorage struct{ ls js.Value }

func (l localStorage) Get(_ context.Context, key string) (string, bool, error) {
	var v js.Value
	if err := idb.Call("localStorage.getItem", func() { v = l.ls.Call("getItem", key) }); err != nil {
		return "", false, err
	}
	if !idb.Truthy(v) {
		return "", false, nil
	}
	return v.String(), true, nil
}

func (l localStorage) Set(_ context.Context, key, value string) error {
	return idb.Call("localStorage.setItem", func() { l.ls.Call("setItem", key, value) })
}
