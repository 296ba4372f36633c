package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/proxy"
)

// TestASlowBodyIsCut opens a connection, declares a body and sends one
// byte of it: the server cuts the request when its read timeout ends
// instead of holding the connection for as long as the client likes.
func TestASlowBodyIsCut(t *testing.T) {
	saved := serverTimeouts
	serverTimeouts.read = 200 * time.Millisecond
	t.Cleanup(func() { serverTimeouts = saved })

	readErr := make(chan error, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := io.ReadAll(r.Body)
		readErr <- err
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, ln, h) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})

	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nx"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-readErr:
		if err == nil {
			t.Fatal("the handler read the whole of a body that never came")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the slow body was not cut within 10 s")
	}
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.ReadAll(conn); err != nil {
		t.Errorf("the server did not close the connection: %v", err)
	}
}

// TestServersBoundEveryPhaseOfARequest holds the timeouts to what they
// promise: a slow body cut after 30 s, and an answer given at least the
// time the proxy gives the API.
func TestServersBoundEveryPhaseOfARequest(t *testing.T) {
	tm := serverTimeouts
	if tm.header <= 0 || tm.read != 30*time.Second || tm.write <= proxy.DefaultCallTimeout || tm.idle <= 0 {
		t.Errorf("timeouts %+v", tm)
	}
}
