//go:build js && wasm

// Command apiworker is the console's second Web Worker: it calls the API
// (submissions, their journal and repeat check, and the bulks they made)
// and writes workbooks. The first worker (wasm/worker) starts it, as a
// nested worker from the same worker.js, and hands it those jobs; its
// messages to the page go through the first. It links the HTTP client
// (which in the browser wraps fetch) and excelize, which the first worker
// leaves out so that it starts fast; package apijobs does the work.
package main

import (
	"context"
	"syscall/js"
	"time"

	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/browserstore"
	"github.com/bulkdesk/bulkdesk/app/submission/kvstore"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/apijobs"
	"github.com/bulkdesk/bulkdesk/wasm/port"
)

func main() {
	self := js.Global()
	server := apijobs.NewServer(func(m wire.Message) { port.Post(self, m) })
	server.Yield = func() { time.Sleep(time.Millisecond) }
	server.OpenJournal = func(ctx context.Context) (submission.Journal, string, error) {
		return openJournal(ctx, self, server.PageStorage())
	}
	// The API's record of bulks, for the repeat check, goes in its own
	// IndexedDB database; without IndexedDB it is kept in memory.
	if idb := self.Get("indexedDB"); idb.Truthy() {
		server.RecordCache = browserstore.NewRecordCache(idb, journalName+"-record")
	}
	port.Listen(self, server.Receive)
	server.Run(context.Background())
}

// journalName names the console's submission journal: one per origin.
const journalName = "bulkdesk"

// openJournal opens the submission journal in the worker's IndexedDB, or,
// where the browser gives the worker none (or refuses to open it), in the
// page's localStorage, reached through the page.
func openJournal(ctx context.Context, self js.Value, page kvstore.KeyValue) (submission.Journal, string, error) {
	if idb := self.Get("indexedDB"); idb.Truthy() {
		j, err := browserstore.OpenStorage(ctx, journalName, idb, js.Undefined())
		if err == nil {
			return j, "IndexedDB", nil
		}
	}
	return kvstore.NewJournal(page, journalName), "localStorage", nil
}
