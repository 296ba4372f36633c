// Package webhook checks and produces the signatures of the API's webhook
// events, and describes the events themselves.
//
// The API signs every event it posts to a receiver with the integrator's
// API key. This package is the one place that knows how; the receiver in
// the server, the command line, the console's verifier page and the
// sandbox that sends events all use it. It is plain Go and runs natively
// and in the browser under WebAssembly.
//
// # Signatures
//
// An event carries two signatures, each the base64 HMAC-SHA256 of a message
// keyed with the API key:
//
//   - signature-v2 signs call-ref + body + published-timestamp: the call-ref
//     header (empty when absent), the body bytes exactly as sent, and the
//     timestamp header's text. It is the one a receiver relies on.
//   - signature, deprecated, signs the published-timestamp alone. It proves
//     nothing about the body; it is checked and reported, never relied on.
//
// [Sign] returns the headers for an event; [Sender] posts one to a receiver.
// A [Verifier] checks a received event and returns a [Result] with one
// [Verdict] per header, each with a reason a person can act on, and on a
// mismatch the exact message that was expected to be signed ([Signed]) and
// the likely cause when it is a common mistake.
//
// # Policy
//
// An event is accepted when signature-v2 is present and matches, call-ref
// is at most 255 characters, and published-timestamp is a whole number of
// milliseconds within a tolerance window of the receiver's clock (five
// minutes each way unless configured). The deprecated signature may be
// absent or wrong without failing an event whose signature-v2 matches.
//
// The same policy holds for every event path. The reference lists the
// signature headers for every event but the end of a bulk process, which
// it marks as secured with the webhooks key and gives a request-ref header
// instead of call-ref; a receiver that let it through unsigned would let
// anyone mark a bulk as finished, so it is held to signature-v2 too, with
// an absent call-ref counted as empty. request-ref is kept with the event
// but is not part of any signed message.
//
// Neither signature covers the event path: a receiver that guards against
// replays must remember a (signature-v2, published-timestamp) pair across
// all paths, as the receiver in "bulkdesk serve" does.
//
// # Keys
//
// A [Key] holds the API key. It prints, formats and marshals as
// "[redacted]", so that a key cannot reach a log or a response by mistake.
//
// # Events
//
// [Types] lists every event path of the webhook reference, such as
// "/bulk_process_end/watch"; [Event] is an accepted event as the receiver
// keeps and serves it; [Summarize] picks the few fields an operator scans
// for in a list of events: the bulk id and status of a bulk that ended, the
// transaction id and state of a transfer, and so on. A [Feed] is the
// events page's model: the listed and the streamed events merged, each
// once, in order.
package webhook
