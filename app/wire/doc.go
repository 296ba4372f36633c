// Package wire is the contract between the console's page and its Web
// Workers: the messages they exchange, the jobs' names, requests and
// results, and the error codes. How the workers run the jobs is told in
// package worker (app/worker).
//
// It holds only plain types and is a leaf: it imports the standard library
// and the domain packages whose values travel in its messages (keyfields,
// money, reading and what they import), never a job implementation, so
// that the page, both workers and the server import it without pulling
// the validator into the page or go-app into the workers (deps_test.go
// keeps it so). The drafts keep a form of their own (package draft).
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
// # Errors
//
// A job that fails answers with one [Error], the only error an operator
// reads: a Code the page acts on and a Message in the operator's
// language that says what they can do. What went wrong inside (an
// error's own text, a panic and its stack) never travels: the worker
// writes it to its log (the browser's console) under a fresh reference
// ([NewRef]), and the Error says that something went wrong inside, with
// that reference in Ref and in its Message. The page shows an error only
// through one helper (errorText in app/ui), which logs what it cannot
// show under a reference of its own.
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
// # Storage
//
// The submission journal lives in the second worker's IndexedDB. Where the
// browser gives the worker none, it lives in the page's localStorage, which
// a worker cannot reach: the worker asks the page with a "storage" message
// (StorageRequest), through the first, and waits for its "storage-reply".
package wire
