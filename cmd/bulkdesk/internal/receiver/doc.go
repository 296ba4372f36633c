// Package receiver is the webhook receiver of "bulkdesk serve": it accepts
// the API's signed events, keeps them in order, and feeds them to the
// console.
//
// # Endpoints
//
// [Receiver.Mount] adds to a ServeMux:
//
//   - POST /webhooks/<event path>, for every event path of the webhook
//     reference (such as /webhooks/bulk_process_end/watch). The answer is
//     204 for an accepted event; 400 for a malformed header or a body that
//     is not a JSON object; 401 for a missing or wrong signature-v2 or a
//     timestamp outside the tolerance window; 404 for a path the reference
//     does not list; 409 for a replay of an accepted (signature-v2,
//     published-timestamp) pair, to any event path since the signature
//     does not cover the path; 413 for a body over the size limit; 503
//     while shutting down or when the event could not be stored. Refusals
//     carry a JSON body with the reason and, for 400 and 401, the verdict
//     on each header.
//   - GET /events?limit=N&type=PATH: accepted events as a JSON array,
//     newest first; every event in the ring when no limit is given. type
//     may repeat and takes an event path with or without its leading
//     slash. The Bulkdesk-Receiver header names the receiver (below).
//   - GET /events/stream?type=PATH&after=SEQ: Server-Sent Events. The
//     stream opens with a "hello" event ({"receiver": ID, "newest": SEQ}),
//     then sends one "message" per accepted event (id: its sequence
//     number, data: the event as JSON), with a comment line as keep-alive.
//     A reconnecting client's Last-Event-ID (or after=SEQ) replays the
//     events it missed from the ring, preceded by a "gap" event
//     ({"after": SEQ, "oldest": SEQ}) if some have already left it. A
//     client too slow to keep up is disconnected and catches up on
//     reconnection. Streams end when the client goes or the receiver
//     closes.
//
// The receiver's id names one numbering of events. It changes when
// numbering starts again from 1 (every start without an events directory),
// so that a console holding events of an earlier numbering knows to drop
// them rather than mistake new events for ones it has.
//
// No endpoint, response or log line ever contains the key.
//
// # Order and storage
//
// Events are kept in a ring of the last N accepted (10,000 unless
// configured), in order of acceptance: sequence numbers, the ring, the
// stream and the file all follow one lock. With a directory configured,
// each accepted event is appended to DIR/events.jsonl (one JSON object a
// line, written before the 204 is sent) and the file is read back when the
// receiver starts: the ring, the sequence numbers, the receiver's id
// (DIR/receiver-id) and the replay guard carry on across a restart. A line cut short by a crash is dropped. One
// server at a time may use a directory.
//
// # Configuration
//
// [Config.RegisterFlags] and [Config.ApplyEnv] give "bulkdesk serve" its
// flags; each has an environment variable, used when the flag is not given:
//
//	-webhook-key KEY            BULKDESK_WEBHOOK_KEY        the API key events are signed with; no key, no receiver
//	-webhook-max-bytes SIZE     BULKDESK_WEBHOOK_MAX_BYTES  largest body accepted (1MiB; takes 512KiB, 2MB, 1048576)
//	-webhook-tolerance DURATION BULKDESK_WEBHOOK_TOLERANCE  how far published-timestamp may be from the clock (5m)
//	-events-ring N              BULKDESK_EVENTS_RING        events kept in memory (10000)
//	-events-dir DIR             BULKDESK_EVENTS_DIR         where events are stored across restarts (none)
//
// Prefer the environment variable for the key: a command line is visible
// to every user of the machine.
package receiver
