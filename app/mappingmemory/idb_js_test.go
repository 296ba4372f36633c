//go:build js && wasm

package mappingmemory_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/idb/idbtest"
	"github.com/bulkdesk/bulkdesk/app/mappingmemory"
)

func TestMemoryInIndexedDB(t *testing.T) {
	factory := idbtest.Factory()
	n := 0
	testMemory(t, func() mappingmemory.Records {
		n++
		r, err := mappingmemory.OpenIndexedDB(context.Background(), factory, fmt.Sprintf("test-%s-%d", t.Name(), n))
		if err != nil {
			t.Fatal(err)
		}
		return r
	})
}

// What is remembered outlives the page: opened again, as after a reload,
// the database recalls it.
func TestMemoryInIndexedDBOutlivesTheConnection(t *testing.T) {
	ctx := context.Background()
	factory := idbtest.Factory()
	open := func() *mappingmemory.Memory {
		r, err := mappingmemory.OpenIndexedDB(ctx, factory, "test-"+t.Name())
		if err != nil {
			t.Fatal(err)
		}
		return mappingmemory.New(r)
	}
	headers := []string{"Montant", "Devise", "Compte destinataire"}
	if err := open().Remember(ctx, mappingmemory.Remembered{Kind: "transfers", Headers: headers, Mapping: "m"}); err != nil {
		t.Fatal(err)
	}
	if r, ok, err := open().Recall(ctx, "transfers", headers); !ok || err != nil || r.Mapping != "m" {
		t.Errorf("after opening again: %+v %v %v", r, ok, err)
	}
}
