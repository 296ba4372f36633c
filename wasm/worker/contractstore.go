//go:build js && wasm

package main

import (
	"context"
	"syscall/js"

	"github.com/bulkdesk/bulkdesk/app/idb"
)

// contractDB names the IndexedDB database of the contract in use; it
// holds one record, under contractKey.
const (
	contractDB    = "bulkdesk-contract"
	contractStore = "contract"
	contractKey   = "current"
)

// contractRecords keeps the contract in use in the worker's IndexedDB
// (jobs.ContractStore).
type contractRecords struct{ db js.Value }

func openContracts(ctx context.Context, factory js.Value) (*contractRecords, error) {
	db, err := idb.Open(ctx, factory, contractDB, 1, contractStore, nil)
	if err != nil {
		return nil, err
	}
	return &contractRecords{db: db}, nil
}

func (c *contractRecords) Load(ctx context.Context) ([]byte, error) {
	v, err := idb.Tx(ctx, c.db, contractStore, "readonly", func(st js.Value) js.Value { return st.Call("get", contractKey) })
	if err != nil || v.Type() != js.TypeString {
		return nil, err
	}
	return []byte(v.String()), nil
}

func (c *contractRecords) Save(ctx context.Context, record []byte) error {
	_, err := idb.Tx(ctx, c.db, contractStore, "readwrite", func(st js.Value) js.Value { return st.Call("put", string(record), contractKey) })
	return err
}
