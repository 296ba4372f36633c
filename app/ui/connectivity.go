package ui

import (
	"sync"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// How often the console checks that its server answers. The browser's own
// online flag only knows about the network card: behind a portal, or with
// the server stopped, the page can be "online" and reach nothing.
const (
	probeEvery        = 15 * time.Second
	probeEveryOffline = 3 * time.Second
)

// connectivity knows whether the console's server answers. One exists per
// page load; shells subscribe to it while mounted.
type connectivity struct {
	mu          sync.Mutex
	online      bool
	started     bool
	subscribers listeners[bool]
	wake        chan struct{}
}

var network = &connectivity{online: true, wake: make(chan struct{}, 1)}

// Online reports the last known state.
func (c *connectivity) Online() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.online
}

// Subscribe calls f with every change until the returned function is called.
func (c *connectivity) Subscribe(f func(online bool)) (unsubscribe func()) {
	return c.subscribers.add(f)
}

// Start begins watching, once per page load; it is a no-op on the server.
func (c *connectivity) Start() {
	c.mu.Lock()
	if c.started || !app.IsClient {
		c.mu.Unlock()
		return
	}
	c.started = true
	c.mu.Unlock()

	recheck := app.FuncOf(func(app.Value, []app.Value) any {
		select {
		case c.wake <- struct{}{}:
		default:
		}
		return nil
	})
	win := app.Window()
	win.Call("addEventListener", "online", recheck)
	win.Call("addEventListener", "offline", recheck)
	win.Get("document").Call("addEventListener", "visibilitychange", recheck)
	go c.watch()
}

// watch probes the server now, then periodically and on every browser hint.
func (c *connectivity) watch() {
	for {
		online := c.probe()
		c.set(online)
		wait := probeEvery
		if !online {
			wait = probeEveryOffline
		}
		select {
		case <-c.wake:
		case <-time.After(wait):
		}
	}
}

// probe asks the server's health endpoint, bypassing every cache; the
// service worker does not keep it, so offline the fetch fails.
func (c *connectivity) probe() bool {
	if !app.Window().Get("navigator").Get("onLine").Bool() {
		return false
	}
	answer := make(chan bool, 1)
	var ok, fail app.Func
	ok = app.FuncOf(func(_ app.Value, args []app.Value) any {
		ok.Release()
		fail.Release()
		answer <- args[0].Get("ok").Bool()
		return nil
	})
	fail = app.FuncOf(func(app.Value, []app.Value) any {
		ok.Release()
		fail.Release()
		answer <- false
		return nil
	})
	opts := app.Window().Get("Object").New()
	opts.Set("cache", "no-store")
	app.Window().Call("fetch", href("/healthz"), opts).Call("then", ok, fail)
	select {
	case online := <-answer:
		return online
	case <-time.After(10 * time.Second):
		return false
	}
}

// set records a state and tells the subscribers when it changed.
func (c *connectivity) set(online bool) {
	c.mu.Lock()
	if online == c.online {
		c.mu.Unlock()
		return
	}
	c.online = online
	c.mu.Unlock()
	c.subscribers.tell(online)
}
