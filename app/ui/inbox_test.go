package ui

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// fakeStream stands for the page's side of an inbox: a queue that
// reports wait in, a once-listener that wakes the inbox, timers that run
// when the test says, and a clock each handled report moves on by cost.
type fakeStream struct {
	t      *testing.T
	in     *inbox
	queue  []int
	armed  bool
	due    int // drains scheduled and not yet run
	wakes  int // calls into the inbox made by reports
	clock  time.Time
	cost   time.Duration
	got    []int
	drains [][]int // what each drain handed over
	// onReport, when set, runs as report n is handed over.
	onReport func(n int)
}

func newFakeStream(t *testing.T, batch int, budget time.Duration) *fakeStream {
	s := &fakeStream{t: t, clock: time.Unix(0, 0), cost: time.Millisecond}
	take := func(n int) ([]func(), int) {
		n = min(n, len(s.queue))
		var reports []func()
		for _, r := range s.queue[:n] {
			reports = append(reports, func() {
				s.clock = s.clock.Add(s.cost)
				s.got = append(s.got, r)
				s.drains[len(s.drains)-1] = append(s.drains[len(s.drains)-1], r)
				if s.onReport != nil {
					s.onReport(r)
				}
			})
		}
		s.queue = s.queue[n:]
		return reports, len(s.queue)
	}
	s.in = newInbox(take, func() { s.due++ }, func() { s.armed = true })
	s.in.now = func() time.Time { return s.clock }
	s.in.batch, s.in.budget = batch, budget
	return s
}

// report queues reports as the browser's listeners do: push, then the
// once-listener if it is armed.
func (s *fakeStream) report(ns ...int) {
	for _, n := range ns {
		s.queue = append(s.queue, n)
		if s.armed {
			s.armed = false
			s.wakes++
			s.in.wake()
		}
	}
}

// runTimer runs one scheduled drain, as the browser's timer would.
func (s *fakeStream) runTimer() bool {
	if s.due == 0 {
		return false
	}
	if s.due > 1 {
		s.t.Fatalf("%d drains scheduled at once", s.due)
	}
	s.due--
	s.drains = append(s.drains, nil)
	s.in.drain()
	return true
}

// settle runs timers until none is due.
func (s *fakeStream) settle() {
	for i := 0; s.runTimer(); i++ {
		if i > 100000 {
			s.t.Fatal("the inbox keeps scheduling drains")
		}
	}
}

func seq(from, to int) []int {
	var ns []int
	for n := from; n <= to; n++ {
		ns = append(ns, n)
	}
	return ns
}

func TestInboxHandsABurstOverInBatchesInOrder(t *testing.T) {
	s := newFakeStream(t, 4, 10*time.Millisecond)
	s.report(seq(1, 1000)...)
	if s.wakes != 1 || s.due != 1 {
		t.Fatalf("a burst of 1000 woke Go %d times and scheduled %d drains, want 1 and 1", s.wakes, s.due)
	}
	if len(s.got) != 0 {
		t.Fatalf("%d reports handed over while the browser dispatched the burst", len(s.got))
	}
	s.settle()
	if !slices.Equal(s.got, seq(1, 1000)) {
		t.Fatalf("handed over %d reports, not 1..1000 in order: %v…", len(s.got), s.got[:min(len(s.got), 10)])
	}
	// Each task hands over whole batches until the budget is spent: at
	// 1 ms a report, 3 batches of 4 (the third crosses 10 ms).
	for i, d := range s.drains[:len(s.drains)-1] {
		if len(d) != 12 {
			t.Fatalf("drain %d handed over %d reports, want 12", i, len(d))
		}
	}
	if n := len(s.drains); n != 84 {
		t.Errorf("%d drains for 1000 reports, want 84", n)
	}
	if !s.armed {
		t.Error("the emptied inbox is not waiting for the next report")
	}
}

func TestInboxTakesWhatArrivesBetweenDrains(t *testing.T) {
	s := newFakeStream(t, 5, time.Millisecond)
	s.report(1, 2, 3, 4, 5, 6, 7)
	s.runTimer() // 1..5; 6, 7 left
	s.report(8, 9)
	if s.wakes != 1 {
		t.Errorf("reports to a queue being drained woke Go: %d wakes", s.wakes)
	}
	s.settle()
	if !slices.Equal(s.got, seq(1, 9)) {
		t.Fatalf("got %v, want 1..9", s.got)
	}
	// Empty, the inbox is woken by the next report, and only by it.
	s.report(10)
	if s.wakes != 2 || s.due != 1 {
		t.Fatalf("a report to the emptied inbox: %d wakes, %d due", s.wakes, s.due)
	}
	s.settle()
	if !slices.Equal(s.got, seq(1, 10)) {
		t.Fatalf("got %v, want 1..10", s.got)
	}
}

func TestInboxLosesNoReport(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		s := newFakeStream(t, 1+r.IntN(30), time.Duration(1+r.IntN(20))*time.Millisecond)
		next := 1
		for range 300 {
			if r.IntN(3) == 0 {
				s.runTimer()
				continue
			}
			k := r.IntN(40)
			s.report(seq(next, next+k-1)...)
			next += k
			// Whatever waits in the queue has a drain coming.
			if len(s.queue) > 0 && s.due == 0 {
				t.Fatalf("trial %d: %d reports queued, no drain scheduled", trial, len(s.queue))
			}
		}
		s.settle()
		if !slices.Equal(s.got, seq(1, next-1)) {
			t.Fatalf("trial %d: handed over %d of %d reports, or out of order", trial, len(s.got), next-1)
		}
	}
}

func TestAClosedInboxHandsNothingOver(t *testing.T) {
	s := newFakeStream(t, 10, time.Second)
	s.report(seq(1, 100)...)
	s.in.close()
	s.settle()
	if len(s.got) != 0 {
		t.Fatalf("a closed inbox handed over %v", s.got)
	}
	s.report(101)
	if s.due != 0 {
		t.Error("a report to a closed inbox scheduled a drain")
	}
}

func TestAReportThatClosesTheInboxEndsItsBatch(t *testing.T) {
	// A stream that fails is closed by the feed while the failure is
	// handed over: what followed it belongs to a dropped connection.
	s := newFakeStream(t, 10, time.Second)
	s.onReport = func(n int) {
		if n == 3 {
			s.in.close()
		}
	}
	s.report(seq(1, 30)...)
	s.settle()
	if !slices.Equal(s.got, []int{1, 2, 3}) {
		t.Fatalf("got %v, want 1, 2, 3", s.got)
	}
	if len(s.drains) != 1 {
		t.Errorf("%d drains after the inbox closed, want 1", len(s.drains))
	}
}
