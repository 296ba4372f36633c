// Package worker is the architecture of the console's Web Workers; the
// protocol between the page and them (messages, jobs' requests and
// results, error codes) is package wire (app/wire). This package holds no
// code: its subpackages are the workers' parts, the job runner (runner),
// the first worker's jobs (jobs), the API worker's (apijobs) and what the
// first hands the second (handoff).
//
// Go WebAssembly runs on one thread, so reading and validating a file of
// 10,000 elements on the page would freeze it for seconds. The console
// therefore runs a second, smaller WebAssembly program (wasm/worker) in a
// Web Worker; the page sends it jobs and shows their progress. The
// protocol holds only plain types, so that both programs import it
// without pulling the validator into the page or go-app into the worker.
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
// and runs the changes; the page keeps only where the operator is. The
// draft keeps its own form of the requests, versioned, not the wire's
// (package draft; the jobs convert at one place, jobs/draftform.go): it
// outlives the console that wrote it, and one of another version is
// discarded with a note the page shows.
//
// # The API contract
//
// The worker validates against the contract built into the console, or
// a newer one the operator loaded on the Settings page (app/wire/contract.go).
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
// The jobs that call the API (app/wire: connection.go, submit.go,
// bulks.go) take a Connection with every request: the page keeps the
// credentials, and the worker keeps nothing of them. They wait on the
// network rather than the processor, so they run beside the other jobs
// (runner.RegisterConcurrent): a submission retrying for minutes, or a
// bulk being watched, never holds up the next file. An API's refusal is part of their result (APIFailure),
// with its request-ref and every syntax error placed in the file.
//
// # Errors
//
// A job returns any error; the runner (app/worker/runner) makes it the one
// error the page receives (wire.Error): as it is when it is one, said in
// the page's language when it can be (lang.Sayer), and otherwise written
// to the worker's log, the browser's console, under a reference the page
// shows, with its stack when the job panicked. A job whose error needs a
// code of its own returns runner.Server.Failure or Hidden. The first
// worker tells the second the page's language before the requests it
// forwards (runner.LanguageJob), so both speak it.
//
// The submission journal lives in the second worker's IndexedDB, or in the
// page's localStorage where the browser gives the worker none (see
// package wire, Storage).
package worker
