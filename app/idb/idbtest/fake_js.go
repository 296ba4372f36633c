//go:build js && wasm

// Package idbtest stands in for the browser's IndexedDB in tests under
// Node, which has none, so that the console's stores test their calls
// without a browser.
package idbtest

import "syscall/js"

// fake follows the browser's asynchronous contract: results arrive in
// later tasks, a transaction completes after its requests. Object stores
// take keys from a keyPath, or beside the value when they have none; a
// database lives as long as the stand-in, across opens, as across a
// page's reloads.
const fake = `(() => {
  const later = (f) => setTimeout(f, 0);
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
            createObjectStore(n, opts) { stores.set(n, { keyPath: opts && opts.keyPath, rows: new Map() }); },
            transaction(n, mode) {
              const st = stores.get(n);
              const tx = { pending: 0 };
              const finish = () => later(() => { if (tx.oncomplete) tx.oncomplete(); });
              const request = (f) => { const r = {}; tx.pending++; later(() => { r.result = f(); if (r.onsuccess) r.onsuccess(); if (--tx.pending === 0) finish(); }); return r; };
              const writing = () => { if (mode !== "readwrite") throw new DOMException("read-only", "ReadOnlyError"); };
              const keys = () => Array.from(st.rows.keys()).sort();
              tx.objectStore = () => ({
                put: (v, k) => { writing(); const key = st.keyPath ? v[st.keyPath] : k; return request(() => { st.rows.set(key, structuredClone(v)); return key; }); },
                delete: (k) => { writing(); return request(() => { st.rows.delete(k); }); },
                clear: () => { writing(); return request(() => { st.rows.clear(); }); },
                get: (k) => request(() => structuredClone(st.rows.get(k))),
                getAllKeys: () => request(() => keys()),
                getAll: () => request(() => keys().map((k) => structuredClone(st.rows.get(k)))),
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
})()`

// Fake returns a new, empty stand-in for an IDBFactory.
func Fake() js.Value { return js.Global().Call("eval", fake) }

// Factory returns the browser's IDBFactory where there is one (tests in
// a browser), else a new Fake.
func Factory() js.Value {
	if f := js.Global().Get("indexedDB"); !f.IsUndefined() {
		return f
	}
	return Fake()
}
