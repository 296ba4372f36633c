//go:build js && wasm

package mappingmemory

import (
	"context"
	"fmt"
	"sync"
	"syscall/js"

	"github.com/bulkdesk/bulkdesk/app/idb"
)

// IndexedDB is Records in an IndexedDB object store: one record of JSON
// text per set of headers, keyed by Key.
//
// Its methods wait for the browser's callbacks: call them from a
// goroutine, never from a JavaScript callback.
type IndexedDB struct {
	db js.Value
	mu sync.Mutex
}

const (
	idbStore   = "mappings"
	idbVersion = 1
)

// OpenIndexedDB opens the records called name in the IDBFactory factory.
func OpenIndexedDB(ctx context.Context, factory js.Value, name string) (*IndexedDB, error) {
	db, err := idb.Open(ctx, factory, name, idbVersion, idbStore, nil)
	if err != nil {
		return nil, err
	}
	return &IndexedDB{db: db}, nil
}

// All returns every record.
func (s *IndexedDB) All(ctx context.Context) (map[string]string, error) {
	var keys, values js.Value
	if err := s.tx(ctx, "readonly", func(st js.Value) {
		keys = st.Call("getAllKeys")
		values = st.Call("getAll")
	}); err != nil {
		return nil, err
	}
	keys, values = keys.Get("result"), values.Get("result")
	out := make(map[string]string, keys.Length())
	for i := range keys.Length() {
		if k, v := keys.Index(i), values.Index(i); k.Type() == js.TypeString && v.Type() == js.TypeString {
			out[k.String()] = v.String()
		}
	}
	return out, nil
}

// Put stores text at key and deletes the records at forget, in one
// transaction.
func (s *IndexedDB) Put(ctx context.Context, key, text string, forget []string) error {
	return s.tx(ctx, "readwrite", func(st js.Value) {
		for _, k := range forget {
			st.Call("delete", k)
		}
		st.Call("put", text, key)
	})
}

// tx runs f on the object store in a transaction and waits until it is
// committed.
func (s *IndexedDB) tx(ctx context.Context, mode string, f func(store js.Value)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err := idb.Tx(ctx, s.db, idbStore, mode, func(st js.Value) js.Value {
		f(st)
		return js.Undefined()
	})
	if err != nil {
		return fmt.Errorf("the remembered mappings: %w", err)
	}
	return nil
}
