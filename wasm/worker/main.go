//go:build js && wasm

// Command worker is the console's Web Worker: a WebAssembly program without
// go-app that runs the CPU work (reading and validating files) off the
// page's thread. web/worker.js starts it; package jobs does the work and
// package worker describes the messages. It is built separately from the
// console so that the validator stays out of the page's WebAssembly.
package main

import (
	"context"
	"runtime/debug"
	"syscall/js"
	"time"

	"github.com/bulkdesk/bulkdesk/app/draft"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/worker"
	"github.com/bulkdesk/bulkdesk/app/worker/jobs"
)

func main() {
	// The files the worker reads hold up to ingest.MemoryLimit of values:
	// past it the collector works harder rather than let the heap double.
	debug.SetMemoryLimit(ingest.MemoryLimit)
	self := js.Global()
	server := jobs.NewServer(func(m worker.Message) { post(self, m) })
	// A millisecond's sleep hands the thread back to the worker's event
	// loop, which then delivers the page's waiting messages (a cancel).
	server.Yield = func() { time.Sleep(time.Millisecond) }
	server.OpenJournal = func(ctx context.Context) (submission.Journal, string, error) {
		return openJournal(ctx, self, server.PageStorage())
	}
	server.OpenDrafts = func(ctx context.Context) (draft.Store, error) {
		store, err := draft.OpenIndexedDB(ctx, self.Get("indexedDB"), draftName)
		if err != nil {
			return nil, err
		}
		return store, nil
	}
	// The contract the operator loaded, and the strict setting.
	server.OpenContracts = func(ctx context.Context) (jobs.ContractStore, error) {
		return openContracts(ctx, self.Get("indexedDB"))
	}
	// The API's record of bulks, for the repeat check, goes in its own
	// IndexedDB database; without IndexedDB it is kept in memory.
	if idb := self.Get("indexedDB"); idb.Truthy() {
		server.RecordCache = submission.NewBrowserRecord(idb, journalName+"-record")
	}

	receive := js.FuncOf(func(_ js.Value, args []js.Value) any {
		m, err := fromJS(args[0])
		if err != nil {
			post(self, worker.Message{ID: m.ID, Type: worker.TypeError, Body: errorJSON(worker.CodeBadRequest, err.Error())})
			return nil
		}
		server.Receive(m)
		return nil
	})
	// worker.js queued the messages that came while this program loaded;
	// it hands them over now, then every new one as it comes.
	self.Call("bulkdeskWorkerReady", receive)
	post(self, worker.Message{Type: worker.TypeReady})
	server.Run(context.Background())
}

// draftName names the IndexedDB database of the import in progress.
const draftName = "bulkdesk-draft"

// journalName names the console's submission journal: one per origin.
const journalName = "bulkdesk"

// openJournal opens the submission journal in the worker's IndexedDB, or,
// where the browser gives the worker none (or refuses to open it), in the
// page's localStorage, reached through the page.
func openJournal(ctx context.Context, self js.Value, page submission.KeyValue) (submission.Journal, string, error) {
	if idb := self.Get("indexedDB"); idb.Truthy() {
		j, err := submission.OpenBrowserStorage(ctx, journalName, idb, js.Undefined())
		if err == nil {
			return j, "IndexedDB", nil
		}
	}
	return submission.NewKeyValue(page, journalName), "localStorage", nil
}
