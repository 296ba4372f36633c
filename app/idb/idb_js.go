//go:build js && wasm

// Package idb holds the few calls the console's IndexedDB stores share
// (the submission journal, the import draft): opening a database with
// one object store, a committed transaction, and waiting for a
// request's events from Go. Its functions wait for the browser's
// callbacks: call them from a goroutine, never from a JavaScript
// callback.
package idb

import (
	"context"
	"errors"
	"fmt"
	"syscall/js"
)

// Truthy reports a value that is neither undefined nor null.
func Truthy(v js.Value) bool { return !v.IsUndefined() && !v.IsNull() }

// Call runs f, turning a thrown JavaScript exception into an error
// about op.
func Call(op string, f func()) (err error) {
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

// Open opens database name of the IDBFactory factory at version, making
// the object store store (with options, nil for none) when it is new.
func Open(ctx context.Context, factory js.Value, name string, version int, store string, options map[string]any) (js.Value, error) {
	if !Truthy(factory) {
		return js.Undefined(), errors.New("this browser gives no IndexedDB here")
	}
	var req js.Value
	if err := Call("indexedDB.open", func() { req = factory.Call("open", name, version) }); err != nil {
		return js.Undefined(), err
	}
	upgrade := js.FuncOf(func(js.Value, []js.Value) any {
		db := req.Get("result")
		if !db.Get("objectStoreNames").Call("contains", store).Bool() {
			if options != nil {
				db.Call("createObjectStore", store, options)
			} else {
				db.Call("createObjectStore", store)
			}
		}
		return nil
	})
	req.Set("onupgradeneeded", upgrade)
	defer func() {
		req.Set("onupgradeneeded", js.Null())
		upgrade.Release()
	}()
	if err := Await(ctx, req, "success", "error", "blocked"); err != nil {
		return js.Undefined(), fmt.Errorf("opening IndexedDB %q: %w", name, err)
	}
	return req.Get("result"), nil
}

// Tx runs f on object store store of db in a transaction of mode and
// waits until the transaction is committed ("strict" durability where
// the browser has it). It returns the result of the request f returns,
// if any.
func Tx(ctx context.Context, db js.Value, store, mode string, f func(store js.Value) js.Value) (js.Value, error) {
	var t, req js.Value
	err := Call("IndexedDB transaction", func() {
		t = db.Call("transaction", store, mode, map[string]any{"durability": "strict"})
		req = f(t.Call("objectStore", store))
	})
	if err != nil {
		return js.Undefined(), err
	}
	if err := Await(ctx, t, "complete", "error", "abort"); err != nil {
		return js.Undefined(), err
	}
	if Truthy(req) {
		return req.Get("result"), nil
	}
	return js.Undefined(), nil
}

// Await waits for one of the named events of a request or transaction:
// ok, or one of fail, which fails with the target's error. When ctx ends
// first, it returns at once; the handlers are taken off the target
// before they are released, since the request still runs and its events
// (or an "abort" after an "error") would call released functions.
func Await(ctx context.Context, target js.Value, ok string, fail ...string) error {
	done := make(chan error, 1)
	var events []string
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
		events = append(events, event)
		target.Set("on"+event, fn)
	}
	on(ok, func() error { return nil })
	for _, ev := range fail {
		on(ev, func() error {
			e := target.Get("error")
			if Truthy(e) {
				return fmt.Errorf("%s: %s", e.Get("name").String(), e.Get("message").String())
			}
			return errors.New(ev)
		})
	}
	defer func() {
		for i, fn := range funcs {
			target.Set("on"+events[i], js.Null())
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
