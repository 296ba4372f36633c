package receiver

import "testing"

// A stream that falls a whole buffer behind is let go rather than slowing
// acceptance down; the client catches up from the ring on reconnection.
func TestBroadcastDropsAStreamThatFallsBehind(t *testing.T) {
	r := &Receiver{subs: map[*subscriber]struct{}{}}
	all := func(*entry) bool { return true }
	slow := &subscriber{ch: make(chan *entry, 2), keep: all}
	fast := &subscriber{ch: make(chan *entry, 8), keep: all}
	r.subs[slow], r.subs[fast] = struct{}{}, struct{}{}
	for seq := uint64(1); seq <= 3; seq++ {
		r.broadcast(&entry{seq: seq})
	}
	if _, ok := r.subs[slow]; ok {
		t.Error("the slow stream is still subscribed")
	}
	got := 0
	for range slow.ch { // closed after its two buffered entries
		got++
	}
	if got != 2 || len(fast.ch) != 3 {
		t.Errorf("slow got %d, fast holds %d", got, len(fast.ch))
	}
	r.unsubscribe(slow) // the handler's deferred call must not close twice
	r.unsubscribe(fast)
	if len(r.subs) != 0 {
		t.Errorf("%d streams left", len(r.subs))
	}
}

func TestRing(t *testing.T) {
	r := newRing(3)
	if got, oldest := r.after(0); got != nil || oldest != 0 {
		t.Errorf("empty ring: %v %d", got, oldest)
	}
	for seq := uint64(1); seq <= 4; seq++ {
		r.push(&entry{seq: seq, typ: map[bool]string{true: "a", false: "b"}[seq%2 == 0]})
	}
	seqs := func(es []*entry) (out []uint64) {
		for _, e := range es {
			out = append(out, e.seq)
		}
		return out
	}
	all := func(*entry) bool { return true }
	if got, more := r.page(0, 10, all); len(got) != 3 || got[0].seq != 4 || got[2].seq != 2 || more {
		t.Errorf("page %v, more %v", seqs(got), more)
	}
	if got, more := r.page(0, 1, func(e *entry) bool { return e.typ == "b" }); len(got) != 1 || got[0].seq != 3 || more {
		t.Errorf("page of b %v, more %v", seqs(got), more)
	}
	if got, more := r.page(4, 1, all); len(got) != 1 || got[0].seq != 3 || !more {
		t.Errorf("page before 4: %v, more %v", seqs(got), more)
	}
	if got, more := r.page(3, 5, all); len(got) != 1 || got[0].seq != 2 || more {
		t.Errorf("page before 3: %v, more %v", seqs(got), more)
	}
	if got, _ := r.page(2, 5, all); len(got) != 0 {
		t.Errorf("page before the oldest: %v", seqs(got))
	}
	if got, _ := r.page(99, 5, all); len(got) != 3 {
		t.Errorf("page before a future number: %v", seqs(got))
	}
	if got, oldest := r.after(2); len(got) != 2 || got[0].seq != 3 || oldest != 2 {
		t.Errorf("after 2: %v, oldest %d", seqs(got), oldest)
	}
}
