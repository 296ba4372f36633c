// Package eventfeed is the console's one connection to the webhook
// receiver of the server that serves it: the events the receiver accepted
// before the page opened, and those it accepts while the page is open,
// merged in order of acceptance and handed to whichever page subscribes.
//
// # One stream for the console
//
// A [Service] lists the receiver's newest events (GET events), then opens
// its event stream (GET events/stream) resuming after the newest event it
// holds, so that nothing accepted in between is lost. Every page that
// shows events, or acts on them, subscribes to the same Service: the
// events page renders the feed, and the bulk page refreshes a bulk when
// its bulk_process_end event arrives. Subscribers are told in batches, a
// few times a second at most, so that a burst of thousands of events makes
// a few page updates, not thousands.
//
// # Reconnection
//
// When the stream drops, the Service lists the receiver's newest events
// again and reopens the stream after the newest event it held before the
// drop (after=SEQ, which the receiver reads as it reads Last-Event-ID):
// the receiver replays what the console missed, and says so with a gap
// message when some of it has already left its memory; the Service keeps
// those gaps for the page to show. It does not leave the reconnection to
// the browser's EventSource, whose retry carries the last id in a
// Last-Event-ID header that a service worker between the page and the
// server drops (Chrome's does), and the receiver would then replay all it
// holds. Attempts come after a delay that grows while they fail, and at
// once when the console learns its server is back online. Each stream
// opens with a hello naming the receiver: a receiver that started a new
// numbering (a restart without stored events) makes the Service drop what
// it holds and load the new receiver's events.
//
// # States
//
// [Status] says where the connection stands: connecting, live,
// reconnecting, no receiver on this server, or the server not answering.
//
// The Service knows the network through a [Transport]; the console's is
// the browser's fetch and EventSource, and tests use their own. The
// package is plain Go, tested natively and under WebAssembly.
package eventfeed
