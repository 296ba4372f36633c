package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"sync"

	"github.com/bulkdesk/bulkdesk/app/ui/eventfeed"
	"github.com/bulkdesk/bulkdesk/app/webhook"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

var (
	eventsOnce    sync.Once
	eventsService *eventfeed.Service
)

// consoleEvents returns the console's one connection to its server's
// webhook receiver, made on first use; every page that shows or acts on
// events subscribes to it. It returns nil on the server.
func consoleEvents() *eventfeed.Service {
	if !app.IsClient {
		return nil
	}
	eventsOnce.Do(func() {
		eventsService = eventfeed.New(eventfeed.Options{Transport: browserEvents{}})
		// What the connectivity probe learns reconnects the stream at once.
		network.Subscribe(eventsService.SetOnline)
		eventsService.SetOnline(network.Online())
	})
	return eventsService
}

// subscribeEvents calls f on the UI goroutine with every update of the
// console's events until the returned function is called; it returns a
// no-op on the server. A component subscribes in OnMount and stops in
// OnDismount.
func subscribeEvents(ctx app.Context, f func(ctx app.Context, u eventfeed.Update)) (stop func()) {
	svc := consoleEvents()
	if svc == nil {
		return func() {}
	}
	return svc.Subscribe(func(u eventfeed.Update) {
		ctx.Dispatch(func(ctx app.Context) { f(ctx, u) })
	})
}

// watchBulkEnds calls refresh on the UI goroutine for every end-of-bulk
// event of the bulk that arrives (of any bulk when bulkID is ""), until
// the returned function is called. It is the bulk page's hook: call it in
// OnMount with the bulk shown, and stop it in OnDismount.
func watchBulkEnds(ctx app.Context, bulkID string, refresh func(ctx app.Context, ev webhook.Event)) (stop func()) {
	return subscribeEvents(ctx, func(ctx app.Context, u eventfeed.Update) {
		for _, ev := range u.Added {
			if ev.Type == bulkEndType && (bulkID == "" || ev.Summary.BulkID == bulkID) {
				refresh(ctx, ev)
			}
		}
	})
}

// bulkEndType is the event path of the end of a bulk process.
const bulkEndType = "/bulk_process_end/watch"

// browserEvents reaches the receiver from the page: GET events through
// the browser's fetch, and the stream through its EventSource. The
// Service, not the EventSource, reconnects a dropped stream.
type browserEvents struct{}

// url returns the absolute URL of one of the receiver's endpoints below
// the console's root: "events" or "events/stream".
func (browserEvents) url(path string, q url.Values) string {
	u := app.Window().URL()
	u.Path, u.RawQuery, u.Fragment = href(path), q.Encode(), ""
	return u.String()
}

// List fetches GET events with the browser's fetch: net/http's client
// would link its native transport and TLS into the page, doubling its
// WebAssembly.
func (b browserEvents) List(ctx context.Context, q eventfeed.Query) (eventfeed.Listing, error) {
	v := url.Values{}
	if q.Limit > 0 {
		v.Set("limit", strconv.Itoa(q.Limit))
	}
	for _, t := range q.Types {
		v.Add("type", t)
	}
	res, err := fetchText(ctx, b.url("/events", v))
	if err != nil {
		return eventfeed.Listing{}, fmt.Errorf("the server does not answer: %w", err)
	}
	mt, _, _ := mime.ParseMediaType(res.contentType)
	switch {
	case res.status == http.StatusNoContent || res.status == http.StatusNotFound:
		// bulkdesk serve answers 204 without a receiver; another server 404.
		return eventfeed.Listing{}, eventfeed.ErrNoReceiver
	case res.status != http.StatusOK:
		return eventfeed.Listing{}, fmt.Errorf("the server answered the list of events with %d %s", res.status, http.StatusText(res.status))
	case mt != "application/json":
		return eventfeed.Listing{}, fmt.Errorf("the server answered the list of events with %s, not JSON", mt)
	}
	var evs []webhook.Event
	if err := json.Unmarshal([]byte(res.body), &evs); err != nil {
		return eventfeed.Listing{}, fmt.Errorf("reading the list of events: %w", err)
	}
	return eventfeed.Listing{Receiver: res.receiver, Events: evs}, nil
}

// fetched is what fetchText read of an answer.
type fetched struct {
	status                      int
	contentType, receiver, body string
}

// fetchText GETs u, bypassing the caches, and reads the answer's text.
func fetchText(ctx context.Context, u string) (fetched, error) {
	abort := app.Window().Get("AbortController").New()
	opts := app.Window().Get("Object").New()
	opts.Set("cache", "no-store")
	opts.Set("signal", abort.Get("signal"))
	headers := app.Window().Get("Object").New()
	headers.Set("Accept", "application/json")
	opts.Set("headers", headers)

	type answer struct {
		f   fetched
		err error
	}
	done := make(chan answer, 1)
	var onResponse, onText, onError app.Func
	release := func() { onResponse.Release(); onText.Release(); onError.Release() }
	var f fetched
	onError = app.FuncOf(func(_ app.Value, args []app.Value) any {
		done <- answer{err: fmt.Errorf("GET %s: %s", u, args[0].Call("toString").String())}
		return nil
	})
	onText = app.FuncOf(func(_ app.Value, args []app.Value) any {
		f.body = args[0].String()
		done <- answer{f: f}
		return nil
	})
	onResponse = app.FuncOf(func(_ app.Value, args []app.Value) any {
		resp := args[0]
		f.status = resp.Get("status").Int()
		h := resp.Get("headers")
		f.contentType = jsString(h.Call("get", "Content-Type"))
		f.receiver = jsString(h.Call("get", "Bulkdesk-Receiver"))
		resp.Call("text").Call("then", onText, onError)
		return nil
	})
	app.Window().Call("fetch", u, opts).Call("then", onResponse, onError)
	select {
	case a := <-done:
		release()
		return a.f, a.err
	case <-ctx.Done():
		abort.Call("abort")
		<-done // the abort rejects the promise
		release()
		return fetched{}, ctx.Err()
	}
}

// jsString returns a JavaScript string's value, or "" for null.
func jsString(v app.Value) string {
	if v.IsNull() || v.IsUndefined() {
		return ""
	}
	return v.String()
}
