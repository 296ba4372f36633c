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
//     204 for an accepted event, sent only once the event is on disk when
//     there is an events directory; 200 for a duplicate of an accepted
//     event, with a JSON body {"status":200,"duplicate":true,"seq":N}
//     naming the number it was stored under (see Duplicates below); 400
//     for a malformed header or a body that is not a JSON object; 401 for
//     a missing or wrong signature-v2 or a timestamp outside the tolerance
//     window; 404 for a path the reference does not list; 413 for a body
//     over the size limit; 503 while shutting down, or when the event
//     could not be stored (a failed write or fsync, or no fsync within
//     the wait bound, 10s, or before the request ended): the event is then
//     not accepted and the sender should send it again. Refusals carry a
//     JSON body with the reason and, for 400 and 401, the verdict on each
//     header.
//   - GET /events?limit=N&before=SEQ&type=PATH: accepted events as a JSON
//     array, newest first, a page at a time: limit events (100 unless
//     given, at most 1,000; more is 400) with a sequence number below
//     before, if given. When older events remain, the
//     Bulkdesk-Next-Before header gives the before= of the next page, and
//     a Link header (rel="next") its URL. type may repeat and takes an
//     event path with or without its leading slash. The
//     Bulkdesk-Receiver header names the receiver (below).
//   - GET /events/stream?type=PATH&after=SEQ: Server-Sent Events. The
//     stream opens with a "hello" event ({"receiver": ID, "newest": SEQ}),
//     then sends one "message" per accepted event (id: its sequence
//     number, data: the event as JSON), with a comment line as keep-alive.
//     A reconnecting client's Last-Event-ID (or after=SEQ) replays the
//     events it missed from the ring, preceded by a "gap" event
//     ({"after": SEQ, "oldest": SEQ}) if some have already left it. A
//     client too slow to keep up is disconnected and catches up on
//     reconnection. Streams end when the client goes or the receiver
//     closes. At most -max-streams are open at once; one more is answered
//     503 with Retry-After.
//
// The receiver's id names one numbering of events. It changes when
// numbering starts again from 1 (every start without an events directory),
// so that a console holding events of an earlier numbering knows to drop
// them rather than mistake new events for ones it has.
//
// # Duplicates
//
// Senders retry an event until they get a 2xx answer, so a copy of an
// accepted event is answered 200 and not stored again. A copy is an event
// with the same call-ref and the same body as one accepted, whether sent
// again as it was or signed again with a new published-timestamp, to the
// same event path or another (the signature does not cover the path).
// Without a call-ref, which the reference makes optional, only the same
// signature-v2 and published-timestamp make a copy: the same payload
// published again is a new event. Events are remembered for the tolerance
// window from their arrival or publication, whichever is later, and each
// copy extends that in memory; a copy arriving while the original is being
// written waits for its outcome.
//
// No endpoint, response or log line ever contains the key.
//
// # Order and storage
//
// Events are kept in a ring of the last N accepted (10,000 unless
// configured), in order of acceptance: sequence numbers, the ring, the
// stream and the file all follow one order.
//
// Without an events directory nothing persists: a restart empties the
// ring, numbers events from 1 again under a new receiver id, and forgets
// the duplicates, so that a copy of an event accepted before the restart
// is stored again.
//
// With a directory, each accepted event is appended to DIR/events.jsonl
// (one JSON object a line) and fsynced before the 204 is sent. Events
// arriving together share one write and one fsync (group commit: while
// one fsync runs, the events that arrive queue for the next); with
// [Config.PerEventFsync] each has its own. An event whose write or fsync
// fails is cut off the file again, answered 503 and never shown; its
// sequence number is not used again, so numbers may have gaps.
//
// events.jsonl is rotated into DIR/events-<time of its last write>.jsonl
// when it reaches 64 MiB and on the first event of each day (UTC);
// segments older than -events-retention are removed at start and every
// hour. At start the receiver reads back the newest files, as many as fill
// the ring and cover the tolerance window: the ring, the sequence numbers,
// the receiver's id (DIR/receiver-id) and the duplicate guard carry on
// across a restart. A line cut short by a crash is dropped. One server at
// a time may use a directory.
//
// With a shared store ([Config.Shared], the database of "-store") the
// store numbers the events and keeps them for every server: each receiver
// fills its ring from the newest and follows the rest as they are stored.
// A ring that does not follow the store would miss what other servers
// store, so until the receiver has joined the store, and whenever its
// follower loses it, GET /events and the stream answer 503 with
// Retry-After and the open streams end; they come back once the follower
// has caught up again.
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
//	-events-retention DURATION  BULKDESK_EVENTS_RETENTION   how long stored events are kept (30d; takes 720h, 7d)
//	-max-streams N              BULKDESK_MAX_STREAMS        event streams open at once (100)
//
// Prefer the environment variable for the key: a command line is visible
// to every user of the machine.
package receiver
