// Package submission sends a bulk request to the API exactly once, however
// often the network fails, the tab reloads or the operator presses Submit.
//
// # Plan
//
// [NewPlan] splits a request into [Chunk]s of at most 10,000 elements, each
// its own bulk, and gives each chunk an idempotency-ref derived from its
// canonical content, kind and endpoint: the same chunk always gets the same
// ref, so the API returns the original bulk instead of making a second one.
// [PlanOptions.Salt] (see [NewSalt]) gives fresh refs for a deliberate
// "submit again as a new bulk".
//
// # Journal
//
// A [Journal] records every chunk, as an [Entry], before its request is
// sent, and its outcome after. [Memory] is for tests. The command line
// keeps it in a bbolt database that several processes share
// (cmd/bulkdesk/internal/journalstore), which imports a [File], the JSON
// journal of earlier versions. In the browser [Browser] keeps it in
// IndexedDB, or localStorage where IndexedDB is missing. [KeyValueJournal] keeps it in
// any store of strings by key: the console's Web Worker, which has no
// localStorage, uses it to keep the journal in the page's.
//
// # Submitting
//
// [Submitter.Submit] sends the chunks of a plan in order, skipping those the
// journal shows submitted, and retries network failures, 5xx and 429 (after
// x-ratelimit-reset) with backoff and always the same ref. An interrupted
// submission resumes from the journal ([PlanFromJournal]) or by planning
// the same file again.
//
// # Before and after
//
// [FindPrior] warns that a loaded file's chunks were submitted already, and
// [CheckOld] looks up entries older than the API's 24-hour ref memory in
// the bulk list. [MapOperations] and [Results] map a bulk's operations back
// to the elements of the operator's file.
package submission
