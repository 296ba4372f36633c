//go:build js && wasm

package browserstore_test

import (
	"context"
	"encoding/json"
	"strings"
	"syscall/js"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/idb/idbtest"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/browserstore"
	"github.com/bulkdesk/bulkdesk/app/submission/journaltest"
)

// shims stand in for the browser's localStorage under Node, which has
// none (idbtest stands in for IndexedDB).
const shims = `(() => {
  const later = (f) => setTimeout(f, 0);
  globalThis.__fakeLocalStorage = (quota) => {
    const data = new Map();
    return {
      getItem: (k) => data.has(k) ? data.get(k) : null,
      setItem: (k, v) => { if (String(v).length > quota) throw new DOMException("over quota", "QuotaExceededError"); data.set(k, String(v)); },
      removeItem: (k) => data.delete(k),
    };
  };
})()`

// shim evaluates a JavaScript expression with the shims defined.
func shim(expr string) js.Value {
	js.Global().Call("eval", shims)
	return js.Global().Call("eval", expr)
}

func TestJournalInIndexedDB(t *testing.T) {
	idb := idbtest.Factory()
	ctx := context.Background()
	name := "test-" + t.Name()
	journaltest.Run(t, func() submission.Journal {
		j, err := browserstore.OpenStorage(ctx, name, idb, js.Undefined())
		if err != nil {
			t.Fatal(err)
		}
		if j.Backend() != "indexedDB" {
			t.Fatalf("backend %s", j.Backend())
		}
		return j
	})
}

func TestJournalFallsBackToLocalStorage(t *testing.T) {
	store := shim("__fakeLocalStorage(4000)")
	ctx := context.Background()
	open := func(name string) *browserstore.Journal {
		j, err := browserstore.OpenStorage(ctx, name, js.Undefined(), store)
		if err != nil {
			t.Fatal(err)
		}
		if j.Backend() != "localStorage" {
			t.Fatalf("backend %s", j.Backend())
		}
		return j
	}
	journaltest.Run(t, func() submission.Journal { return open("ls") })

	// Over the quota, the kept bodies go and the entries stay.
	j := open("quota")
	big := submission.Entry{Ref: "bd-big", Kind: "transfers", State: submission.Planned, Body: json.RawMessage(`["` + strings.Repeat("x", 5000) + `"]`)}
	if err := j.Put(ctx, big); err != nil {
		t.Fatal(err)
	}
	all, err := j.Entries(ctx)
	if err != nil || len(all) != 1 || all[0].Ref != "bd-big" || all[0].Body != nil {
		t.Fatalf("entries %+v, %v", all, err)
	}
	huge := submission.Entry{Ref: "bd-huge", Source: strings.Repeat("y", 5000)}
	if err := j.Put(ctx, huge); err == nil {
		t.Error("an entry over the quota was reported stored")
	}
	if !strings.Contains(store.Call("getItem", "bulkdesk.journal.quota").String(), "bd-big") {
		t.Error("a failed Put lost the earlier entries")
	}
}

func TestJournalNeedsSomeStorage(t *testing.T) {
	if _, err := browserstore.OpenStorage(context.Background(), "none", js.Undefined(), js.Null()); err == nil {
		t.Error("a journal opened without any storage")
	}
}
