// Package memlisten is a net.Listener inside the process: its connections
// are in-memory pipes (net.Pipe) that only its Dial makes, so what it
// serves can be reached by the process's own calls and by nothing
// outside it, whatever address, sign-in or Host check a TCP listener
// would need.
//
// "bulkdesk serve -sandbox" serves the sandbox and the webhook receiver on
// one for its proxy and the sandbox's webhook sender:
//
//	ln := memlisten.New()
//	go http.Serve(ln, mux)
//	client := &http.Client{Transport: ln.Transport()}
//	client.Get("http://sandbox.internal/sandbox/multi/bulks") // any host
package memlisten

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// A Listener accepts the connections its Dial makes. It is safe for
// concurrent use; the zero value is not: use New.
type Listener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

// New returns a listener ready to accept.
func New() *Listener {
	return &Listener{conns: make(chan net.Conn), done: make(chan struct{})}
}

// Addr is the address every Listener reports: no network reaches it.
type Addr struct{}

// Network returns "memory".
func (Addr) Network() string { return "memory" }

// String returns "in-memory".
func (Addr) String() string { return "in-memory" }

// Accept waits for a connection made by Dial; after Close it returns
// net.ErrClosed.
func (l *Listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close stops accepting: waiting and later Accepts and Dials fail.
// Connections already made stay open until their ends close them.
func (l *Listener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

// Addr returns Addr{}.
func (l *Listener) Addr() net.Addr { return Addr{} }

// Dial connects to the listener; network and address are ignored, so
// that an http.Transport may dial it for any URL. It waits until the
// listener accepts, ctx ends or the listener is closed.
func (l *Listener) Dial(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
		err := net.ErrClosed
		client.Close()
		server.Close()
		return nil, fmt.Errorf("dialing the in-memory listener: %w", err)
	case <-ctx.Done():
		client.Close()
		server.Close()
		return nil, fmt.Errorf("dialing the in-memory listener: %w", ctx.Err())
	}
}

// Transport returns an HTTP transport whose every connection is dialled
// to the listener, whatever the URL's host, and never through a proxy of
// the environment.
func (l *Listener) Transport() *http.Transport {
	return &http.Transport{
		DialContext:     l.Dial,
		MaxIdleConns:    20,
		IdleConnTimeout: 90 * time.Second,
	}
}
