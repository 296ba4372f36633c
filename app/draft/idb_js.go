//go:build js && wasm

package draft

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"syscall/js"

	"github.com/bulkdesk/bulkdesk/app/idb"
)

// IndexedDB is a Store in an IndexedDB object store of the worker: one
// record for the meta, one for the file's bytes (written once, by Begin),
// and one per op, so that an edit writes a few dozen bytes however large
// the file and however long the log.
//
// Its methods wait for the browser's callbacks: call them from a
// goroutine, never from a JavaScript callback.
type IndexedDB struct {
	db js.Value
	mu sync.Mutex
}

const (
	idbStore   = "draft"
	idbVersion = 1
	keyMeta    = "meta"
	keyData    = "data"
	opPrefix   = "op:"
)

// OpenIndexedDB opens the draft store called name in the IDBFactory idb.
func OpenIndexedDB(ctx context.Context, factory js.Value, name string) (*IndexedDB, error) {
	db, err := idb.Open(ctx, factory, name, idbVersion, idbStore, nil)
	if err != nil {
		return nil, err
	}
	return &IndexedDB{db: db}, nil
}

func opKey(seq int) string { return fmt.Sprintf("%s%010d", opPrefix, seq) }

func (s *IndexedDB) Begin(ctx context.Context, m Meta, data []byte) error {
	m.Size = len(data)
	text, err := EncodeMeta(m)
	if err != nil {
		return err
	}
	bytes := js.Global().Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(bytes, data)
	_, err = s.tx(ctx, "readwrite", func(st js.Value) js.Value {
		st.Call("clear")
		st.Call("put", bytes, keyData)
		return st.Call("put", text, keyMeta)
	})
	return err
}

func (s *IndexedDB) Append(ctx context.Context, o Op) error {
	text, err := EncodeOp(o)
	if err != nil {
		return err
	}
	_, err = s.tx(ctx, "readwrite", func(st js.Value) js.Value { return st.Call("put", text, opKey(o.Seq)) })
	return err
}

func (s *IndexedDB) Drop(ctx context.Context, seqs ...int) error {
	if len(seqs) == 0 {
		return nil
	}
	_, err := s.tx(ctx, "readwrite", func(st js.Value) js.Value {
		for _, q := range seqs {
			st.Call("delete", opKey(q))
		}
		return js.Undefined()
	})
	return err
}

func (s *IndexedDB) Load(ctx context.Context) (*Draft, bool, error) {
	var keys, values js.Value
	_, err := s.tx(ctx, "readonly", func(st js.Value) js.Value {
		keys = st.Call("getAllKeys")
		values = st.Call("getAll")
		return js.Undefined()
	})
	if err != nil {
		return nil, false, err
	}
	keys, values = keys.Get("result"), values.Get("result")
	var meta string
	var data []byte
	var ops []string
	for i := range keys.Length() {
		k, v := keys.Index(i).String(), values.Index(i)
		switch {
		case k == keyMeta:
			meta = v.String()
		case k == keyData:
			data = make([]byte, v.Get("length").Int())
			js.CopyBytesToGo(data, v)
		case strings.HasPrefix(k, opPrefix):
			ops = append(ops, v.String())
		}
	}
	if meta == "" {
		return nil, false, nil
	}
	d, err := Decode(meta, data, ops)
	if err != nil {
		return nil, false, err
	}
	return d, true, nil
}

func (s *IndexedDB) Clear(ctx context.Context) error {
	_, err := s.tx(ctx, "readwrite", func(st js.Value) js.Value { return st.Call("clear") })
	return err
}

// tx runs f on the object store in a transaction and waits until the
// transaction is committed ("strict" durability where the browser has it).
func (s *IndexedDB) tx(ctx context.Context, mode string, f func(store js.Value) js.Value) (js.Value, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	res, err := idb.Tx(ctx, s.db, idbStore, mode, f)
	if err != nil {
		return js.Undefined(), fmt.Errorf("the draft: %w", err)
	}
	return res, nil
}
