package ui

import (
	"sync"
	"time"
)

// How the inbox hands reports over: a batch of inboxBatch at a time, and
// batches for at most inboxBudget in one task, after which the browser
// gets its main thread back (to draw, to answer a click) before the next.
// A report costs the feed about a quarter of a millisecond (reading the
// event's JSON under WebAssembly); the budget keeps a task well under the
// 50 ms of a long task, and long enough that the 4 ms the browser waits
// between chained timers does not halve the throughput.
const (
	inboxBatch  = 10
	inboxBudget = 20 * time.Millisecond
)

// An inbox hands what an EventSource reports to the event feed in
// batches, each batch in a task of its own.
//
// Chrome dispatches every message of a chunk the stream received in one
// task, and each call from the browser into Go costs the runtime a full
// turn of its scheduler. A burst of a thousand events handled as they
// were dispatched froze the page for seconds. So the stream's listeners
// are JavaScript's own (an array's push): reports wait there in order
// and cost Go nothing. Go is woken by the first report to reach an empty
// queue (a listener added with once, which rearm adds again), and drains
// the queue from a timer of the browser's, a batch at a time.
//
// The inbox is the logic of it, plain Go; the page's EventSource and
// timers are behind its functions.
type inbox struct {
	// take removes up to n reports from the queue, oldest first, and
	// returns what to do for each, and how many are left.
	take func(n int) (reports []func(), left int)
	// schedule has drain run in a later task.
	schedule func()
	// rearm has the next report call wake.
	rearm func()
	// now is the clock; batch and budget as inboxBatch and inboxBudget.
	now    func() time.Time
	batch  int
	budget time.Duration

	mu        sync.Mutex
	scheduled bool // drain is scheduled, or running
	closed    bool
}

// newInbox returns an inbox with the console's batch and budget, armed.
func newInbox(take func(n int) ([]func(), int), schedule, rearm func()) *inbox {
	in := &inbox{take: take, schedule: schedule, rearm: rearm, now: time.Now, batch: inboxBatch, budget: inboxBudget}
	rearm()
	return in
}

// wake is called when a report reaches an empty queue: it schedules a
// drain unless one is already due.
func (in *inbox) wake() {
	in.mu.Lock()
	defer in.mu.Unlock()
	if !in.scheduled && !in.closed {
		in.scheduled = true
		in.schedule()
	}
}

// drain hands over batches until the queue is empty or the budget is
// spent. Then it schedules the next drain or, with the queue empty,
// rearms the wake and returns.
func (in *inbox) drain() {
	start := in.now()
	for {
		in.mu.Lock()
		if in.closed {
			in.mu.Unlock()
			return
		}
		reports, left := in.take(in.batch)
		in.mu.Unlock()
		// A report may close the inbox (a failed stream closes it):
		// the rest are not handed over.
		for _, f := range reports {
			if in.isClosed() {
				return
			}
			f()
		}
		in.mu.Lock()
		switch {
		case in.closed:
			in.mu.Unlock()
			return
		case left == 0:
			// Nothing runs between this and the next report's listener:
			// the wake rearmed here is called by it.
			in.scheduled = false
			in.rearm()
			in.mu.Unlock()
			return
		case in.now().Sub(start) >= in.budget:
			in.schedule()
			in.mu.Unlock()
			return
		}
		in.mu.Unlock()
	}
}

func (in *inbox) isClosed() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.closed
}

// close stops the inbox: what is still queued is dropped, and a drain
// already scheduled does nothing.
func (in *inbox) close() {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.closed = true
}
