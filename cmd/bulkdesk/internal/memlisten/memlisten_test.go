package memlisten_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/memlisten"
)

// TestAnHTTPServerAnswersThroughTheListener: an http.Server on the
// listener answers a client of its Transport, whatever host the URL
// names, and Close ends Serve as a TCP listener's would.
func TestAnHTTPServerAnswersThroughTheListener(t *testing.T) {
	ln := memlisten.New()
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		io.WriteString(w, r.Method+" "+r.Host+r.URL.Path+" "+string(body))
	}), ReadHeaderTimeout: 5 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	client := &http.Client{Transport: ln.Transport(), Timeout: 10 * time.Second}
	for _, host := range []string{"sandbox.internal", "attacker.example:80", "127.0.0.1:1"} {
		res, err := client.Post("http://"+host+"/sandbox/multi/bulks", "text/plain", strings.NewReader("hello"))
		if err != nil {
			t.Fatalf("%s: %v", host, err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if want := "POST " + host + "/sandbox/multi/bulks hello"; string(body) != want {
			t.Errorf("%s: %q, want %q", host, body, want)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		t.Errorf("Serve returned %v", err)
	}
	if _, err := client.Get("http://sandbox.internal/"); err == nil {
		t.Error("a call after the server shut down was answered")
	}
}

func TestClosingStopsAcceptingAndDialling(t *testing.T) {
	ln := memlisten.New()
	accepted := make(chan error, 1)
	go func() {
		_, err := ln.Accept()
		accepted <- err
	}()
	ln.Close()
	if err := <-accepted; !errors.Is(err, net.ErrClosed) {
		t.Errorf("a waiting Accept: %v", err)
	}
	if _, err := ln.Accept(); !errors.Is(err, net.ErrClosed) {
		t.Errorf("an Accept after Close: %v", err)
	}
	if _, err := ln.Dial(context.Background(), "tcp", "x:1"); !errors.Is(err, net.ErrClosed) {
		t.Errorf("a Dial after Close: %v", err)
	}
	if err := ln.Close(); err != nil {
		t.Errorf("closing twice: %v", err)
	}
	if a := ln.Addr(); a.Network() != "memory" || a.String() != "in-memory" {
		t.Errorf("the address: %s %s", a.Network(), a)
	}
}

// TestADialNobodyAcceptsEndsWithItsContext.
func TestADialNobodyAcceptsEndsWithItsContext(t *testing.T) {
	ln := memlisten.New()
	defer ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	dialled := make(chan error, 1)
	go func() {
		_, err := ln.Dial(ctx, "tcp", "x:1")
		dialled <- err
	}()
	cancel()
	if err := <-dialled; !errors.Is(err, context.Canceled) {
		t.Errorf("the dial: %v", err)
	}
}

// TestBothEndsOfAConnectionTalk: what one end writes the other reads, and
// closing one ends the other's reading.
func TestBothEndsOfAConnectionTalk(t *testing.T) {
	ln := memlisten.New()
	defer ln.Close()
	server := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			t.Error(err)
		}
		server <- c
	}()
	client, err := ln.Dial(context.Background(), "", "")
	if err != nil {
		t.Fatal(err)
	}
	s := <-server
	go func() {
		client.Write([]byte("ping"))
		client.Close()
	}()
	got, err := io.ReadAll(s)
	if err != nil || string(got) != "ping" {
		t.Errorf("read %q, %v", got, err)
	}
	s.Close()
}
