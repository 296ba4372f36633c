package webhook

import "sort"

// DefaultFeedSize is how many events a Feed holds unless told otherwise:
// as many as the receiver's ring.
const DefaultFeedSize = 10_000

// Feed is the events page's model: the events the receiver listed and
// those its stream brought since, each once, in order of acceptance, at
// most a fixed number. The page renders Events; it feeds Merge with the
// GET /events answer and with every streamed event, and reconnects the
// stream with ?after=Newest().
type Feed struct {
	max    int
	events []Event // oldest first: streamed events append
	held   map[uint64]bool
}

// NewFeed returns a feed holding at most max events (DefaultFeedSize when
// max <= 0); the oldest leave first.
func NewFeed(max int) *Feed {
	if max <= 0 {
		max = DefaultFeedSize
	}
	return &Feed{max: max, held: map[uint64]bool{}}
}

// Merge adds events in any order, skipping those already held, and
// returns how many it added.
func (f *Feed) Merge(evs ...Event) int {
	added := 0
	for _, ev := range evs {
		if f.held[ev.Seq] {
			continue
		}
		n := len(f.events)
		if n == f.max && ev.Seq < f.events[0].Seq {
			continue // older than everything a full feed keeps
		}
		f.held[ev.Seq] = true
		added++
		if n == 0 || ev.Seq > f.events[n-1].Seq {
			f.events = append(f.events, ev)
		} else {
			i := sort.Search(n, func(i int) bool { return f.events[i].Seq > ev.Seq })
			f.events = append(f.events, Event{})
			copy(f.events[i+1:], f.events[i:])
			f.events[i] = ev
		}
		if len(f.events) > f.max {
			delete(f.held, f.events[0].Seq)
			f.events = f.events[1:]
		}
	}
	return added
}

// Holds reports whether the feed holds the event numbered seq.
func (f *Feed) Holds(seq uint64) bool { return f.held[seq] }

// Len returns how many events the feed holds.
func (f *Feed) Len() int { return len(f.events) }

// Newest returns the sequence number of the newest event held, or 0.
func (f *Feed) Newest() uint64 {
	if len(f.events) == 0 {
		return 0
	}
	return f.events[len(f.events)-1].Seq
}

// Events returns up to limit events (all when limit <= 0), newest first,
// of the given types (all when none is given; paths as LookupType takes
// them).
func (f *Feed) Events(limit int, types ...string) []Event {
	want := map[string]bool{}
	for _, t := range types {
		want[CanonicalPath(t)] = true
	}
	var out []Event
	for i := len(f.events) - 1; i >= 0 && (limit <= 0 || len(out) < limit); i-- {
		if len(want) == 0 || want[f.events[i].Type] {
			out = append(out, f.events[i])
		}
	}
	return out
}

// Counts returns how many events of each type the feed holds, for a
// filter that shows them.
func (f *Feed) Counts() map[string]int {
	counts := map[string]int{}
	for _, ev := range f.events {
		counts[ev.Type]++
	}
	return counts
}

// BulkEnd returns the newest end-of-bulk event of the bulk, for the bulk
// page to show and refresh on.
func (f *Feed) BulkEnd(bulkID string) (Event, bool) {
	for i := len(f.events) - 1; i >= 0; i-- {
		if ev := f.events[i]; ev.Summary.BulkID == bulkID && ev.Type == "/bulk_process_end/watch" {
			return ev, true
		}
	}
	return Event{}, false
}
