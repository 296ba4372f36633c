package runner_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
)

// pair is a first worker whose second records what it is sent.
type pair struct {
	first  *runner.Server
	toPage chan wire.Message
	toSec  chan wire.Message
}

func newPair(t *testing.T) *pair {
	t.Helper()
	p := &pair{toPage: make(chan wire.Message, 16), toSec: make(chan wire.Message, 16)}
	p.first = runner.New(func(m wire.Message) { p.toPage <- m })
	p.first.Forward = func(m wire.Message) { p.toSec <- m }
	p.first.Register("double", func(c *runner.Call) (any, error) {
		var n int
		if err := c.Decode(&n); err != nil {
			return nil, err
		}
		return runner.Handoff{Job: "write", Request: 2 * n, Data: []byte("doc")}, nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { p.first.Run(ctx, nil); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return p
}

func next(t *testing.T, ch chan wire.Message, what string) wire.Message {
	t.Helper()
	select {
	case m := <-ch:
		return m
	case <-time.After(10 * time.Second):
		t.Fatalf("nothing reached %s", what)
	}
	return wire.Message{}
}

func TestJobsTheFirstWorkerLacksGoToTheSecondAndBack(t *testing.T) {
	p := newPair(t)
	p.first.Receive(wire.Message{ID: 7, Type: wire.TypeRequest, Job: "submit", Body: []byte(`{}`)})
	if m := next(t, p.toSec, "the second worker"); m.ID != 7 || m.Job != "submit" || m.Type != wire.TypeRequest {
		t.Fatalf("the second worker got %+v", m)
	}
	p.first.Receive(wire.Message{ID: 7, Type: wire.TypeCancel})
	if m := next(t, p.toSec, "the second worker"); m.ID != 7 || m.Type != wire.TypeCancel {
		t.Fatalf("the cancel went %+v", m)
	}
	p.first.Receive(wire.Message{ID: 3, Type: wire.TypeStorageReply, Body: []byte(`{}`)})
	if m := next(t, p.toSec, "the second worker"); m.ID != 3 || m.Type != wire.TypeStorageReply {
		t.Fatalf("the page's storage reply went %+v", m)
	}
	p.first.FromSecond(wire.Message{Type: wire.TypeReady})
	p.first.FromSecond(wire.Message{ID: 7, Type: wire.TypeResult, Job: "submit", Body: []byte(`"sent"`)})
	if m := next(t, p.toPage, "the page"); m.ID != 7 || m.Type != wire.TypeResult || string(m.Body) != `"sent"` {
		t.Fatalf("the page got %+v (the second worker's start concerns the first alone)", m)
	}
}

func TestAHandoffCarriesTheRequestUnderThePagesID(t *testing.T) {
	p := newPair(t)
	p.first.Receive(wire.Message{ID: 4, Type: wire.TypeRequest, Job: "double", Body: []byte(`21`)})
	m := next(t, p.toSec, "the second worker")
	var n int
	if err := json.Unmarshal(m.Body, &n); err != nil || m.ID != 4 || m.Job != "write" || n != 42 || string(m.Data) != "doc" {
		t.Fatalf("the second worker got %+v (%v)", m, err)
	}
	select {
	case m := <-p.toPage:
		t.Fatalf("the first worker answered a job it handed over: %+v", m)
	default:
	}
}

func TestJobsOfASecondWorkerThatStoppedEndWithItsError(t *testing.T) {
	p := newPair(t)
	p.first.Receive(wire.Message{ID: 1, Type: wire.TypeRequest, Job: "bulks"})
	p.first.Receive(wire.Message{ID: 2, Type: wire.TypeRequest, Job: "bulk"})
	next(t, p.toSec, "the second worker")
	next(t, p.toSec, "the second worker")
	p.first.FromSecond(wire.Message{ID: 1, Type: wire.TypeResult, Job: "bulks", Body: []byte(`[]`)})
	next(t, p.toPage, "the page")
	fatal, _ := json.Marshal(wire.Error{Code: wire.CodeUnavailable, Message: "the engine stopped"})
	p.first.FromSecond(wire.Message{Type: wire.TypeFatal, Body: fatal})
	m := next(t, p.toPage, "the page")
	if m.ID != 2 || m.Type != wire.TypeError || string(m.Body) != string(fatal) {
		t.Fatalf("the job still waiting got %+v", m)
	}
	select {
	case m := <-p.toPage:
		t.Fatalf("an answered job was ended again: %+v", m)
	default:
	}
}

// The second worker hears the page's language before the first request it
// is forwarded, and again once it changed; it takes it without answering.
func TestTheSecondWorkerIsToldTheLanguageBeforeItsRequests(t *testing.T) {
	p := newPair(t)
	l := "de"
	p.first.Language = func() string { return l }
	told := func(want string) {
		t.Helper()
		m := next(t, p.toSec, "the second worker")
		var tag string
		if err := json.Unmarshal(m.Body, &tag); err != nil || m.Job != runner.LanguageJob || tag != want {
			t.Fatalf("the second worker got %+v first, want to be told %q", m, want)
		}
	}
	p.first.Receive(wire.Message{ID: 1, Type: wire.TypeRequest, Job: "bulks"})
	told("de")
	next(t, p.toSec, "the second worker")
	p.first.Receive(wire.Message{ID: 2, Type: wire.TypeRequest, Job: "bulks"})
	if m := next(t, p.toSec, "the second worker"); m.ID != 2 {
		t.Fatalf("told again: %+v", m)
	}
	l = "fr"
	p.first.Receive(wire.Message{ID: 3, Type: wire.TypeRequest, Job: "bulks"})
	told("fr")

	second := runner.New(func(m wire.Message) { t.Errorf("the second worker answered %+v", m) })
	var heard string
	second.Told = func(tag string) { heard = tag }
	second.Receive(wire.Message{Type: wire.TypeRequest, Job: runner.LanguageJob, Body: []byte(`"fr"`)})
	if heard != "fr" {
		t.Errorf("the second worker heard %q", heard)
	}
}
