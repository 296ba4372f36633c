//go:build js && wasm

package submission_test

import (
	"context"
	"encoding/json"
	"strings"
	"syscall/js"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/submission"
)

// shims stand in for the browser's storage under Node, which has neither.
// They follow the browser's asynchronous contract: results arrive in
// later tasks, transactions complete after their requests.
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
  globalThis.__fakeIndexedDB = () => {
    const dbs = new Map();
    return {
      open(name, version) {
        const req = {};
        later(() => {
          let db = dbs.get(name);
          const fresh = !db;
          if (fresh) {
            const stores = new Map();
            db = { stores,
              objectStoreNames: { contains: (n) => stores.has(n) },
              createObjectStore(n, opts) { stores.set(n, { keyPath: opts.keyPath, rows: new Map() }); },
              transaction(n, mode) {
                const st = stores.get(n);
                const tx = { pending: 0 };
                const finish = () => later(() => { if (tx.oncomplete) tx.oncomplete(); });
                const request = (f) => { const r = {}; tx.pending++; later(() => { r.result = f(); if (r.onsuccess) r.onsuccess(); if (--tx.pending === 0) finish(); }); return r; };
                tx.objectStore = () => ({
                  put: (v) => { if (mode !== "readwrite") throw new DOMException("read-only", "ReadOnlyError"); return request(() => { st.rows.set(v[st.keyPath], structuredClone(v)); return v[st.keyPath]; }); },
                  getAll: () => request(() => Array.from(st.rows.values()).map((v) => structuredClone(v))),
                  delete: (k) => request(() => { st.rows.delete(k); }),
                });
                later(() => { if (tx.pending === 0) finish(); });
                return tx;
              },
            };
            dbs.set(name, db);
          }
          req.result = db;
          if (fresh && req.onupgradeneeded) req.onupgradeneeded();
          if (req.onsuccess) req.onsuccess();
        });
        return req;
      },
    };
  };
})()`

// shim evaluates a JavaScript expression with the shims defined.
func shim(expr string) js.Value {
	js.Global().Call("eval", shims)
	return js.Global().Call("eval", expr)
}

func TestBrowserJournalInIndexedDB(t *testing.T) {
	idb := js.Global().Get("indexedDB")
	if idb.IsUndefined() { // Node: a stand-in; a browser tests the real one
		idb = shim("__fakeIndexedDB()")
	}
	ctx := context.Background()
	name := "test-" + t.Name()
	testJournal(t, func() submission.Journal {
		j, err := submission.OpenBrowserStorage(ctx, name, idb, js.Undefined())
		if err != nil {
			t.Fatal(err)
		}
		if j.Backend() != "indexedDB" {
			t.Fatalf("backend %s", j.Backend())
		}
		return j
	})
}

func TestBrowserJournalFallsBackToLocalStorage(t *testing.T) {
	store := shim("__fakeLocalStorage(4000)")
	ctx := context.Background()
	open := func(name string) *submission.Browser {
		j, err := submission.OpenBrowserStorage(ctx, name, js.Undefined(), store)
		if err != nil {
			t.Fatal(err)
		}
		if j.Backend() != "localStorage" {
			t.Fatalf("backend %s", j.Backend())
		}
		return j
	}
	testJournal(t, func() submission.Journal { return open("ls") })

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

func TestBrowserJournalNeedsSomeStorage(t *testing.T) {
	if _, err := submission.OpenBrowserStorage(context.Background(), "none", js.Undefined(), js.Null()); err == nil {
		t.Error("a journal opened without any storage")
	}
}
