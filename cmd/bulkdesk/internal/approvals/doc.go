// Package approvals keeps the record "bulkdesk serve -four-eyes" needs to
// enforce its maker–checker rule: who submitted each bulk through the
// proxy, when, and to which API, with the maker's receipt the server
// computed from the body it passed on (bulkreview.Receipt, one chunk),
// and who executed or cancelled it; it decides whether a signed-in
// operator may execute a bulk, and lists the bulks awaiting a second
// operator.
//
// store.go opens the database and holds its file lock; types.go is a
// bulk's record and record.go writes and reads it, its receipt apart;
// awaiting.go is the file's index of the bulks awaiting a second
// operator; rule.go is the decision; handler.go answers the console's
// question about one bulk, queue_handler.go its approval queue.
//
// The API makes a bulk before it answers the submission that names it,
// so a submission is recorded as in flight before it is sent
// (flight.go: Rule.Submitting, then Rule.Answered; inflight.go keeps
// them in the file): while an operator's submission is in flight, their
// execution of a bulk the record does not know is refused, even where
// unknown bulks are allowed. A record that cannot be written once the
// API has answered is held in memory and written again (held.go).
// store_js.go lets the WebAssembly build compile: bbolt needs flock and
// mmap, so only the native server can enforce the rule.
//
// The record names the operator as the server's sign-in gave it, never a
// credential: no API key, token, password or idempotency-ref is stored.
package approvals
