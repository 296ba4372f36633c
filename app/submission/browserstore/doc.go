//go:build js && wasm

// Package browserstore keeps a submission's journal and the record of the
// API's bulks in the browser, for the console: in IndexedDB, or the
// journal in localStorage where IndexedDB is missing (private windows of
// some browsers; see kvstore).
//
// [Journal] is a submission.Journal; [RecordCache] a
// submission.RecordCache, one IndexedDB row per bulk with its
// fingerprints as bytes. Their methods wait for the browser's callbacks:
// call them from a goroutine, never straight from an event handler.
package browserstore
