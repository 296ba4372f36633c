// Package kvstore keeps a submission's journal as one JSON item of a store
// of strings by key ([KeyValue]), as the browser's localStorage is: the
// console's journal where IndexedDB is missing, and the Web Worker's,
// which has no localStorage and reaches the page's through messages.
//
// A store of a few megabytes may not take every entry whole: [Journal.Put]
// gives up the kept bodies, then the fingerprints, never the entries.
package kvstore
