// Package worker is the contract between the console's page and its Web
// Worker: the messages they exchange and the jobs the worker runs.
//
// Go WebAssembly runs on one thread, so reading and validating a file of
// 10,000 elements on the page would freeze it for seconds. The console
// therefore runs a second, smaller WebAssembly program (wasm/worker) in a
// Web Worker; the page sends it jobs and shows their progress. This package
// holds only plain types, so that both programs import it without pulling
// the validator into the page or go-app into the worker.
//
// # Two workers
//
// The worker the page talks to reads, validates and reviews (package jobs)
// and links nothing else, so that it downloads and compiles beside the
// page and is ready for the first file. The jobs that call the API or
// write workbooks run in a second worker (wasm/apiworker, package apijobs)
// with the HTTP client and excelize, which the first starts at the first
// such job. The page sees one worker: the first passes it the second's
// messages and hands the second what it needs of a document (package
// handoff, package runner).
//
// # Messages
//
// Every message is a [Message]: an id chosen by the page, a [Type], and for
// requests the job's name. Its Body is JSON text (the job's request, its
// result, a [Progress] or an [Error]); its Data is an optional binary
// payload, such as the bytes of the file being read. In the browser a
// message is a plain object {id, type, job, body, data} (the Field
// constants; EncodeEnvelope and DecodeEnvelope write and read it, and
// EncodeBody, DecodeBody and DecodeError its body) and data is an
// ArrayBuffer handed over with postMessage's transfer list, so a file of
// megabytes moves between the threads without being copied.
//
// A conversation:
//
//	page   → worker  {id: 7, type: "request", job: "open", body: {...}, data: <file bytes>}
//	worker → page    {id: 7, type: "progress", body: {"phase": "validating", "done": 4000, "total": 10000}}
//	worker → page    {id: 7, type: "result", body: {...}}        (or type "error", body: Error)
//	page   → worker  {id: 7, type: "cancel"}                      (at any time; answered by an error "canceled")
//
// The worker runs one job at a time, in order of arrival, and posts at most
// a few progress messages a second. Before its first job it posts a message
// of type "ready"; if it cannot start at all it posts "fatal". While it has
// no job, it warms up (the browser runs new code slowly until it has
// compiled and optimized it) and then posts "warm".
//
// # Jobs
//
// Each job has a name (JobOpen, …), a request type and a result type,
// declared in this package next to each other (review.go lists the jobs
// of an import in the order an operator meets them). The worker keeps what
// JobOpen loaded as a document, named by the results' Document field, so
// that later jobs — how the file is read, building it, windows of the
// review table, edits, find-and-replace, exports, and the submission —
// work on it without sending the file again.
//
// To add a job: declare its name, request and result types here; write the
// function in package jobs (or apijobs, if it calls the API or writes a
// workbook) and register it in its NewServer; call it from
// the page with the worker client (app/ui/workerclient). A job reports
// progress with Call.Progress, which also lets a cancel message through.
//
// # How a file is read
//
// Nothing about money is guessed. Prepared carries the reading of the
// file (reading.Reading: each decision, how it was taken and the cells
// behind it) and says it in words (Statements); Summary and Confirmation
// carry the same words for the review and the confirmation before a
// submission. A file whose reading needs a look (a decision its cells
// left undecided, or amounts in major units) is never built at once by
// Open.Auto: the page shows how it is read first. A Prepare names in
// Chosen the settings the operator decided, which are then marked as
// their choice even where they equal the default.
//
// # The draft
//
// The import in progress survives the page: JobOpen keeps the file's bytes
// in the worker's IndexedDB (package draft), and every job that changes
// the document adds its request to a log there before it answers, so that
// what the page shows as saved is stored (Summary.Draft says so). A page
// that mounts asks for it with JobRestoreDraft: the worker answers with
// the document it holds or, after a reload, opens the bytes again and
// replays the log. A successful JobSubmit and JobDiscardDraft remove it.
// The worker keeps it, not the page, because the worker holds the bytes
// and runs the changes; the page keeps only where the operator is.
//
// # The API contract
//
// The worker validates against the contract built into the console, or
// a newer one the operator loaded on the Settings page (contract.go).
// The page reads the OpenAPI file in a short-lived worker of its own
// (web/contract.js running wasm/contract), which alone links the reader,
// and sends what it derived with JobContract. The worker builds its
// validator from it for every later file, keeps it with the strict
// setting in its IndexedDB, and puts both back in use when it starts
// again. JobContract with neither a source nor Builtin only sets the
// strict setting and answers what is in use: the page sends one at
// start-up, which also tells it the operations a contract file is
// searched for (Targets), so that the page need not link the schemas.
//
// # Submission and the API
//
// The jobs that call the API (connection.go, submit.go, bulks.go) take a
// Connection with every request: the page keeps the credentials, and the
// worker keeps nothing of them. They wait on the network rather than the
// processor, so they run beside the other jobs (runner.RegisterConcurrent):
// a submission retrying for minutes, or a bulk being watched, never holds
// up the next file. An API's refusal is part of their result (APIFailure),
// with its request-ref and every syntax error placed in the file.
//
// The submission journal lives in the second worker's IndexedDB. Where the
// browser gives the worker none, it lives in the page's localStorage, which
// a worker cannot reach: the worker asks the page with a "storage" message
// (StorageRequest), through the first, and waits for its "storage-reply".
package worker
