package ui

import (
	"net/url"
	"strconv"

	"github.com/bulkdesk/bulkdesk/app/ui/eventfeed"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// streamEvents are the events an EventSource dispatches that the feed
// hears of: its own open and error, and the receiver's messages (webhook
// events, unnamed, then hello and gap).
var streamEvents = []string{"open", "error", "message", "hello", "gap"}

// Open opens the stream with the browser's EventSource. Its listeners
// are an array's push, so that a burst costs Go nothing while the
// browser dispatches it; an inbox hands the queued events to h a batch
// per task (see inbox).
func (b browserEvents) Open(after uint64, h eventfeed.Handler) (close func()) {
	es := app.Window().Get("EventSource").New(b.url("/events/stream", url.Values{"after": {strconv.FormatUint(after, 10)}}))
	queue := app.Window().Get("Array").New()
	push := queue.Get("push").Call("bind", queue)
	for _, name := range streamEvents {
		es.Call("addEventListener", name, push)
	}

	var in *inbox
	wake := app.FuncOf(func(app.Value, []app.Value) any {
		in.wake()
		return nil
	})
	drain := app.FuncOf(func(app.Value, []app.Value) any {
		in.drain()
		return nil
	})
	once := app.Window().Get("Object").New()
	once.Set("once", true)
	var timer app.Value
	take := func(n int) ([]func(), int) {
		batch := queue.Call("splice", 0, n)
		reports := make([]func(), batch.Length())
		for i := range reports {
			reports[i] = streamReport(es, batch.Index(i), h)
		}
		return reports, queue.Length()
	}
	schedule := func() { timer = app.Window().Call("setTimeout", drain, 0) }
	rearm := func() {
		// Added after push, the wake hears of an event once it is queued.
		// Adding a listener twice adds it once.
		for _, name := range streamEvents {
			es.Call("addEventListener", name, wake, once)
		}
	}
	in = newInbox(take, schedule, rearm)
	return func() {
		es.Call("close")
		in.close()
		if timer != nil {
			app.Window().Call("clearTimeout", timer)
		}
		wake.Release()
		drain.Release()
	}
}

// streamReport returns what to tell h of an event es dispatched.
func streamReport(es, e app.Value, h eventfeed.Handler) func() {
	switch name := e.Get("type").String(); name {
	case "open":
		return h.Opened
	case "error":
		// CLOSED (2) at once: the answer was not an event stream.
		return func() { h.Failed(es.Get("readyState").Int() == 2) }
	case "message":
		data := e.Get("data").String()
		return func() { h.Message("", data) } // a webhook event
	default:
		data := e.Get("data").String()
		return func() { h.Message(name, data) }
	}
}
