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
// sent, and its outcome after. This package is the domain: it holds no
// storage, and each place a journal or a record of bulks is kept is a
// package of its own beside it, held to one behaviour by the suites
// journaltest and recordcachetest:
//
//   - memstore: in memory, for tests and a console that keeps nothing;
//   - filestore: JSON files, the command line's record of bulks next to
//     its journal, and the journal file of earlier versions, which the
//     command line's database (cmd/bulkdesk/internal/journalstore)
//     imports;
//   - kvstore: one item of a store of strings by key, such as
//     localStorage, which the console's Web Worker reaches through the
//     page;
//   - browserstore: the console's IndexedDB, falling back to localStorage;
//   - recordhttp: the record of bulks kept by the console's server, asked
//     for over HTTP.
//
// # Submitting
//
// [Submitter.Submit] sends the chunks of a plan in order, skipping those the
// journal shows submitted, and retries network failures, 5xx and 429 (after
// x-ratelimit-reset) with backoff and always the same ref. An interrupted
// submission resumes from the journal ([PlanFromJournal]) or by planning
// the same file again.
//
// # Repeats
//
// Refs catch the same chunk twice, not the same element in another chunk:
// a file cut into other chunks, a file corrected after its valid elements
// were sent, or a colleague's copy would make new bulks of elements that
// earlier bulks hold. Every element has a [Fingerprint], the SHA-256 of
// what it asks the API to do (kind, single operation, path parameter and
// canonical requestBody), kept with each submitted [Entry] and equal to the
// fingerprint of the operation the API made of it ([OperationFingerprint],
// from its path and requestPayload). [UpdateRecord] reads the API's record
// of the identity's bulks, every one not yet executed and those executed
// in the last 35 days ([RepeatWindow]), fetching the operations of a bulk
// only once: a [RecordCache] keeps them. [FindRepeats] checks the elements a
// plan would put in new bulks against the journal and that record, and
// [Plan.Without] leaves the repeats out.
//
// # Before and after
//
// [FindPrior] warns that a loaded file's chunks were submitted already, and
// [CheckOld] looks up entries older than the API's 24-hour ref memory in
// the bulk list. [MapOperations] maps a bulk's operations back to the
// elements of the operator's file.
package submission
