package runner_test

import (
	"bytes"
	"context"
	"errors"
	"log"
	"regexp"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/lang/langtest"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
)

// insideText is what the failing jobs know of their failure: text for
// the log, not for people.
const insideText = "secret-row"

// runFailing runs job in a worker speaking l and returns the error the
// page receives and what the worker logged.
func runFailing(t *testing.T, l lang.Tag, job string, f runner.Func) (*wire.Error, string) {
	t.Helper()
	toPage := make(chan wire.Message, 1)
	s := runner.New(func(m wire.Message) { toPage <- m })
	s.Say = l.Say
	var logged bytes.Buffer
	s.Log = log.New(&logged, "", 0)
	s.Register(job, f)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx, nil); close(done) }()
	defer func() { cancel(); <-done }()
	s.Receive(wire.Message{ID: 1, Type: wire.TypeRequest, Job: job, Body: []byte(`{}`)})
	m := next(t, toPage, "the page")
	if m.Type != wire.TypeError {
		t.Fatalf("%s answered %+v, not an error", job, m)
	}
	// The job's error is logged before it is posted.
	return wire.DecodeError(m.Body), logged.String()
}

var ref = regexp.MustCompile(`^[0-9A-F]{6}$`)

// A job that panics, or returns an error of its own, reaches the page as
// one sentence in the operator's language with a reference, and nothing
// of the error's text or the panic's; the log holds them under the same
// reference, the panic with its stack.
func TestAFailureInsideReachesThePageAsASentenceWithAReference(t *testing.T) {
	jobs := map[string]runner.Func{
		"panics": func(*runner.Call) (any, error) {
			panic("no " + insideText + " in the table")
		},
		"fails": func(*runner.Call) (any, error) {
			return nil, errors.New("decoding " + insideText + " 42: unexpected EOF")
		},
	}
	for _, l := range []lang.Tag{lang.German, lang.French} {
		for job, f := range jobs {
			t.Run(string(l)+"/"+job, func(t *testing.T) {
				e, logged := runFailing(t, l, job, f)
				if e.Code != wire.CodeInternal || !ref.MatchString(e.Ref) {
					t.Fatalf("the page got %+v: want code %q and a reference", e, wire.CodeInternal)
				}
				if !strings.Contains(e.Message, e.Ref) || strings.Contains(e.Message, insideText) || strings.Contains(e.Message, "panic") {
					t.Errorf("the page reads %q: want the reference %s and nothing of the failure", e.Message, e.Ref)
				}
				if en := langtest.English(e.Message); len(en) > 0 {
					t.Errorf("the page reads %q, English words %q", e.Message, en)
				}
				if !strings.Contains(logged, "reference "+e.Ref) || !strings.Contains(logged, insideText) {
					t.Errorf("the log holds %q: want the reference %s and the failure", logged, e.Ref)
				}
				if job == "panics" && !strings.Contains(logged, "runtime/debug.Stack") {
					t.Errorf("the log of a panic holds no stack: %q", logged)
				}
			})
		}
	}
}

// An error that can be said is said in the operator's language, and the
// log is not needed for it.
func TestAnErrorThatCanBeSaidIsSaidInTheLanguage(t *testing.T) {
	const text = "the file is no longer loaded; load it again"
	e, logged := runFailing(t, lang.German, "said", func(*runner.Call) (any, error) {
		return nil, lang.Errorf(text)
	})
	if want := lang.German.T(text); e.Code != wire.CodeFailed || e.Message != want || e.Ref != "" || want == text {
		t.Errorf("the page got %+v, want code %q and %q", e, wire.CodeFailed, want)
	}
	if logged != "" {
		t.Errorf("the log holds %q", logged)
	}
}

// A second worker that could not start ends the jobs it was given as
// unavailable, with the same sentence and reference as any failure
// inside, and the reason in the log.
func TestASecondWorkerThatCouldNotStartIsSaidWithAReference(t *testing.T) {
	toPage := make(chan wire.Message, 1)
	s := runner.New(func(m wire.Message) { toPage <- m })
	s.Say = lang.French.Say
	var logged bytes.Buffer
	s.Log = log.New(&logged, "", 0)
	s.Forward = func(wire.Message) {}
	s.Receive(wire.Message{ID: 3, Type: wire.TypeRequest, Job: "submit"})
	s.SecondFailed(s.Unavailable(errors.New("no Worker inside a Worker")))
	e := wire.DecodeError(next(t, toPage, "the page").Body)
	if e.Code != wire.CodeUnavailable || !ref.MatchString(e.Ref) || !strings.Contains(e.Message, e.Ref) || len(langtest.English(e.Message)) > 0 {
		t.Errorf("the page got %+v: want unavailable, said in French with a reference", e)
	}
	if !strings.Contains(logged.String(), e.Ref) || !strings.Contains(logged.String(), "no Worker inside a Worker") {
		t.Errorf("the log holds %q", logged.String())
	}
}

// The second worker speaks the page's language only from its first plan
// on: the first says the sentence of an error with a reference again, in
// its own language, with the same reference.
func TestTheSecondWorkersFailureInsideIsSaidInTheFirstsLanguage(t *testing.T) {
	p := newPair(t)
	p.first.Say = lang.German.Say
	p.first.Receive(wire.Message{ID: 5, Type: wire.TypeRequest, Job: "bulks"})
	next(t, p.toSec, "the second worker")
	english := wire.Error{Code: wire.CodeInternal, Ref: "ABC123", Message: "Something went wrong inside the console (reference ABC123)."}
	body, _ := wire.EncodeBody(english)
	p.first.FromSecond(wire.Message{ID: 5, Type: wire.TypeError, Job: "bulks", Body: body})
	e := wire.DecodeError(next(t, p.toPage, "the page").Body)
	if e.Code != wire.CodeInternal || e.Ref != "ABC123" || !strings.Contains(e.Message, "ABC123") || len(langtest.English(e.Message)) > 0 {
		t.Errorf("the page got %+v: want the reference, said in German", e)
	}
}
