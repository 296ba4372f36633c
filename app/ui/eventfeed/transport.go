package eventfeed

import (
	"context"
	"errors"

	"github.com/bulkdesk/bulkdesk/app/webhook"
)

// ErrNoReceiver is what a Transport's List returns when the server has no
// webhook receiver: bulkdesk serve answers GET events with 204 No Content
// then, another server with 404.
var ErrNoReceiver = errors.New("the server runs no webhook receiver")

// A Transport reaches the receiver: its list of events and its stream.
type Transport interface {
	// List returns the receiver's newest events as q asks, newest first,
	// and the receiver's id.
	List(ctx context.Context, q Query) (Listing, error)
	// Open opens the event stream, resuming after the event numbered
	// after, and reports what it brings to h until the returned function
	// closes it.
	Open(after uint64, h Handler) (close func())
}

// Query asks for events.
type Query struct {
	// Limit is how many events at most; 0 means the receiver's default
	// page (100). The receiver answers at most 1,000 a request.
	Limit int
	// Types are event paths; none means every type.
	Types []string
}

// Listing is the answer to a List.
type Listing struct {
	// Receiver is the receiver's id ("" when the server does not say).
	Receiver string
	Events   []webhook.Event
}

// A Handler receives what an open stream brings. Its methods are called
// from the browser's event callbacks: they return quickly and never wait.
type Handler interface {
	// Opened reports that the stream is connected.
	Opened()
	// Message reports one message: event is its name ("" for a webhook
	// event, "hello", "gap") and data its data.
	Message(event, data string)
	// Failed reports that the connection failed. closed says the server
	// refused the stream (an answer other than an event stream) rather
	// than the connection dropping.
	Failed(closed bool)
}
