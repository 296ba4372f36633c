package receiver

// entry is one accepted event as the ring holds it: its sequence number,
// type and JSON encoding, ready to write to a response, a stream or the
// file without encoding it again.
type entry struct {
	seq  uint64
	typ  string
	json []byte
}

// ring keeps the last len(buf) entries in order of acceptance. It is not
// safe for concurrent use; the Receiver's lock guards it.
type ring struct {
	buf   []*entry
	start int // index of the oldest entry
	n     int
}

func newRing(size int) *ring { return &ring{buf: make([]*entry, size)} }

// push adds e as the newest entry, dropping the oldest when full.
func (r *ring) push(e *entry) {
	if r.n < len(r.buf) {
		r.buf[(r.start+r.n)%len(r.buf)] = e
		r.n++
		return
	}
	r.buf[r.start] = e
	r.start = (r.start + 1) % len(r.buf)
}

// at returns the i-th entry, oldest first.
func (r *ring) at(i int) *entry { return r.buf[(r.start+i)%len(r.buf)] }

// page returns up to limit entries that keep accepts with a sequence
// number below before (any when before is 0), newest first, and whether
// the ring holds more such entries past them.
func (r *ring) page(before uint64, limit int, keep func(*entry) bool) (out []*entry, more bool) {
	i := r.n - 1
	if before > 0 {
		// Sequence numbers increase along the ring: find the first entry
		// below before by bisection rather than walking a large ring.
		lo, hi := 0, r.n // the answer is in [lo, hi)
		for lo < hi {
			mid := (lo + hi) / 2
			if r.at(mid).seq < before {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		i = lo - 1
	}
	for ; i >= 0; i-- {
		e := r.at(i)
		if !keep(e) {
			continue
		}
		if len(out) == limit {
			return out, true
		}
		out = append(out, e)
	}
	return out, false
}

// after returns the entries with a sequence number above seq, oldest
// first, and the oldest sequence number the ring still holds (0 when
// empty).
func (r *ring) after(seq uint64) (entries []*entry, oldest uint64) {
	if r.n == 0 {
		return nil, 0
	}
	for i := 0; i < r.n; i++ {
		if e := r.at(i); e.seq > seq {
			entries = append(entries, e)
		}
	}
	return entries, r.at(0).seq
}
