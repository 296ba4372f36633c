//go:build js && wasm

package submission

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"syscall/js"
)

// Browser is the journal of the console: entries in an IndexedDB object
// store, or in one localStorage item where IndexedDB is missing (private
// windows of some browsers, tests under Node with a storage shim).
//
// Its methods wait for the browser's callbacks: call them from a goroutine
// (go-app's ctx.Async), never straight from an event handler.
type Browser struct {
	name string
	db   js.Value         // an IDBDatabase, or undefined
	ls   *KeyValueJournal // in localStorage, when db is undefined
	mu   sync.Mutex
}

const (
	idbStore   = "entries"
	idbVersion = 1
)

// OpenBrowser opens the journal called name (one per console origin is
// usual), in IndexedDB if the browser has it, else in localStorage.
func OpenBrowser(ctx context.Context, name string) (*Browser, error) {
	return OpenBrowserStorage(ctx, name, js.Global().Get("indexedDB"), js.Global().Get("localStorage"))
}

// OpenBrowserStorage is OpenBrowser with the storage objects given: an
// IDBFactory and a Storage, either undefined when missing. Tests pass
// stand-ins.
func OpenBrowserStorage(ctx context.Context, name string, indexedDB, storage js.Value) (*Browser, error) {
	b := &Browser{name: name}
	if truthy(indexedDB) {
		db, err := openIDB(ctx, indexedDB, name)
		if err == nil {
			b.db = db
			return b, nil
		}
		// An IndexedDB that refuses to open (blocked by settings) is as
		// good as none: fall back.
		if !truthy(storage) {
			return nil, fmt.Errorf("opening the journal: %w", err)
		}
	}
	if !truthy(storage) {
		return nil, errors.New("opening the journal: this browser has neither IndexedDB nor localStorage")
	}
	b.ls = NewKeyValue(localStorage{storage}, name)
	return b, nil
}

// Backend names the storage in use: "indexedDB" or "localStorage".
func (b *Browser) Backend() string {
	if truthy(b.db) {
		return "indexedDB"
	}
	return "localStorage"
}

func truthy(v js.Value) bool { return !v.IsUndefined() && !v.IsNull() }

// jsError turns a thrown JavaScript exception into an error.
func jsError(op string, f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if je, ok := r.(js.Error); ok {
				err = fmt.Errorf("%s: %s", op, je.Error())
				return
			}
			panic(r)
		}
	}()
	f()
	return nil
}

// await waits for one of the named events of a request or transaction.
// ok names the success event; the others fail with the target's error.
func await(ctx context.Context, target js.Value, ok string, fail ...string) error {
	done := make(chan error, 1)
	var funcs []js.Func
	on := func(event string, f func() error) {
		fn := js.FuncOf(func(js.Value, []js.Value) any {
			select {
			case done <- f():
			default:
			}
			return nil
		})
		funcs = append(funcs, fn)
		target.Set("on"+event, fn)
	}
	on(ok, func() error { return nil })
	for _, ev := range fail {
		on(ev, func() error {
			e := target.Get("error")
			if truthy(e) {
				return fmt.Errorf("%s: %s", e.Get("name").String(), e.Get("message").String())
			}
			return errors.New(ev)
		})
	}
	defer func() {
		for _, fn := range funcs {
			fn.Release()
		}
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func openIDB(ctx context.Context, idb js.Value, name string) (js.Value, error) {
	var req js.Value
	if err := jsError("indexedDB.open", func() { req = idb.Call("open", name, idbVersion) }); err != nil {
		return js.Undefined(), err
	}
	upgrade := js.FuncOf(func(js.Value, []js.Value) any {
		db := req.Get("result")
		if !db.Get("objectStoreNames").Call("contains", idbStore).Bool() {
			db.Call("createObjectStore", idbStore, map[string]any{"keyPath": "ref"})
		}
		return nil
	})
	defer upgrade.Release()
	req.Set("onupgradeneeded", upgrade)
	if err := await(ctx, req, "success", "error", "blocked"); err != nil {
		return js.Undefined(), fmt.Errorf("opening IndexedDB %q: %w", name, err)
	}
	return req.Get("result"), nil
}

// tx runs f on the object store in a transaction and waits until the
// transaction is committed ("strict" durability where the browser has it).
func (b *Browser) tx(ctx context.Context, mode string, f func(store js.Value) js.Value) (js.Value, error) {
	var t, req js.Value
	err := jsError("IndexedDB transaction", func() {
		t = b.db.Call("transaction", idbStore, mode, map[string]any{"durability": "strict"})
		req = f(t.Call("objectStore", idbStore))
	})
	if err != nil {
		return js.Undefined(), err
	}
	if err := await(ctx, t, "complete", "error", "abort"); err != nil {
		return js.Undefined(), fmt.Errorf("journal: %w", err)
	}
	if truthy(req) {
		return req.Get("result"), nil
	}
	return js.Undefined(), nil
}

// Put stores e, durably once it returns.
func (b *Browser) Put(ctx context.Context, e Entry) error {
	if !truthy(b.db) {
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
func (b *Browser) Entries(ctx context.Context) ([]Entry, error) {
	if !truthy(b.db) {
		return b.ls.Entries(ctx)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	res, err := b.tx(ctx, "readonly", func(s js.Value) js.Value { return s.Call("getAll") })
	if err != nil {
		return nil, err
	}
	out := make([]Entry, 0, res.Length())
	for i := range res.Length() {
		var e Entry
		if err := json.Unmarshal([]byte(res.Index(i).Get("entry").String()), &e); err != nil {
			return nil, fmt.Errorf("reading the journal: %w", err)
		}
		out = append(out, e)
	}
	slices.SortStableFunc(out, func(a, b Entry) int { return a.Created.Compare(b.Created) })
	return out, nil
}

// Delete removes entries.
func (b *Browser) Delete(ctx context.Context, refs ...string) error {
	if !truthy(b.db) {
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
	if err := jsError("localStorage.getItem", func() { v = l.ls.Call("getItem", key) }); err != nil {
		return "", false, err
	}
	if !truthy(v) {
		return "", false, nil
	}
	return v.String(), true, nil
}

func (l localStorage) Set(_ context.Context, key, value string) error {
	return jsError("localStorage.setItem", func() { l.ls.Call("setItem", key, value) })
}
