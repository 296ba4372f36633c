//go:build js && wasm

// Command worker is the console's first Web Worker: a WebAssembly program
// without go-app that reads and validates files off the page's thread.
// web/worker.js starts it; package jobs does the work and package wire
// describes the messages. It is built separately from the console so that
// the validator stays out of the page's WebAssembly, and it links neither
// the HTTP client nor excelize, so that it starts fast: the jobs that need
// them go to the second worker (wasm/apiworker), which this one starts.
package main

import (
	"context"
	"runtime/debug"
	"syscall/js"
	"time"

	"github.com/bulkdesk/bulkdesk/app/draft"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/jobs"
	"github.com/bulkdesk/bulkdesk/wasm/port"
)

func main() {
	// The files the worker reads hold up to ingest.MemoryLimit of values:
	// past it the collector works harder rather than let the heap double.
	debug.SetMemoryLimit(ingest.MemoryLimit)
	self := js.Global()
	server := jobs.NewServer(func(m wire.Message) { port.Post(self, m) })
	// A workbook or CSV file is read with the collector off until it has
	// added batchBudget to the heap, and its garbage collected once its
	// result is out (jobs.Server.SetBatchGC): the reading of 10,000 rows
	// took 10-20 % less time in Chromium, its worker memory 90 MB rather
	// than 25-40 MB. A JSON file is read as usual, which was faster.
	server.SetBatchGC(-1, batchBudget)
	// A millisecond's sleep hands the thread back to the worker's event
	// loop, which then delivers the page's waiting messages (a cancel).
	server.Yield = func() { time.Sleep(time.Millisecond) }
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
	// The second worker's program: worker.js keeps what the page's init
	// message named.
	sec := &second{server: server, script: self.Get("location").Get("href").String(), arrived: make(chan struct{}, 1)}
	go sec.deliver()
	if u := self.Get("bulkdeskSecondWasm"); u.Type() == js.TypeString {
		sec.wasm = u.String()
	}
	server.Forward = sec.send
	timePhases(self, server)

	port.Listen(self, server.Receive)
	server.Run(context.Background())
}

// batchBudget is the memory a file's reading may add to the worker's heap
// before the collector runs: a 10,000-row workbook or CSV file is read
// within it without a collection.
const batchBudget = 128 << 20

// draftName names the IndexedDB database of the import in progress.
const draftName = "bulkdesk-draft"
