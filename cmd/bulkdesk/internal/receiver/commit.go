package receiver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// commit is one event on its way to the events file.
type commit struct {
	key   string
	entry *entry
	done  chan struct{} // closed when err is final
	err   error         // nil once the event is on disk
}

// pruneInterval is how often expired segments are looked for besides
// start and rotation, for a receiver that runs for weeks.
const pruneInterval = time.Hour

// signal wakes the commit goroutine without ever waiting.
func (r *Receiver) signal() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// wait waits for c to be on disk (see await).
func (r *Receiver) wait(ctx context.Context, c *commit) outcome {
	if err := r.await(ctx, c.done, "on disk"); err != nil {
		return outcome{status: http.StatusServiceUnavailable, err: err}
	}
	if c.err != nil {
		return outcome{status: http.StatusServiceUnavailable, err: errors.New("the event could not be stored; send it again later")}
	}
	return outcome{status: http.StatusNoContent, seq: c.entry.seq}
}

// await waits until done is closed, for as long as the request lasts and
// at most SyncTimeout; where says where the event goes ("on disk",
// "stored"). An event whose wait ends early may still be stored: its
// sender retries and the copy is answered as a duplicate.
func (r *Receiver) await(ctx context.Context, done <-chan struct{}, where string) error {
	timer := time.NewTimer(r.cfg.SyncTimeout)
	defer timer.Stop()
	select {
	case <-done:
		return nil
	case <-timer.C:
		return fmt.Errorf("the event was not %s within %s; send it again later", where, r.cfg.SyncTimeout)
	case <-ctx.Done():
		return fmt.Errorf("the request ended before the event was %s: %w", where, ctx.Err())
	}
}

// commitLoop is the one writer of the events file. Group commit: it takes
// every event queued since its last fsync, writes them in one call and
// covers them with one fsync, so that concurrent requests share the cost
// of the sync rather than queueing for one each. With PerEventFsync it
// takes one event at a time.
func (r *Receiver) commitLoop() {
	defer close(r.writerDone)
	tick := time.NewTicker(pruneInterval)
	defer tick.Stop()
	for {
		select {
		case <-r.wake:
		case <-tick.C:
			r.journal.prune(r.cfg.Now())
			continue
		}
		most := 0
		if r.cfg.PerEventFsync {
			most = 1
		}
		if drain(r, &r.queue, most, r.commitBatch) {
			return
		}
	}
}

// drain hands the queued items to write, at most most at a time (all when
// most is 0), until the queue is empty; it reports whether the receiver
// is closing, when its writer stops.
func drain[T any](r *Receiver, queue *[]T, most int, write func([]T)) (closing bool) {
	for {
		r.qmu.Lock()
		n := len(*queue)
		if most > 0 {
			n = min(n, most)
		}
		batch := (*queue)[:n:n]
		*queue = (*queue)[n:]
		if len(*queue) == 0 {
			*queue = nil // let the backing array go
		}
		closing = r.closing
		r.qmu.Unlock()
		if len(batch) == 0 {
			return closing
		}
		write(batch)
	}
}

// commitBatch writes and syncs a batch, then publishes its events or, if
// they could not be made durable, fails them all.
func (r *Receiver) commitBatch(batch []*commit) {
	j := r.journal
	now := r.cfg.Now()
	if err := j.rotateIfDue(now); err != nil {
		// Appending to the current file is still durable; rotation is
		// tried again on the next batch.
		r.log.Error("webhook receiver: rotating the events file failed", "err", err)
	}
	size := 0
	for _, c := range batch {
		size += len(c.entry.json) + 1
	}
	lines := make([]byte, 0, size)
	for _, c := range batch {
		lines = append(append(lines, c.entry.json...), '\n')
	}
	before := j.size
	err := j.write(lines, now)
	if err == nil {
		if err = j.sync(len(batch)); err != nil {
			err = errors.Join(err, j.rollback(before))
		}
	}
	if err != nil {
		r.log.Error("webhook receiver: storing events failed", "events", len(batch), "err", err)
		r.qmu.Lock()
		for _, c := range batch {
			r.replay.forget(c.key)
		}
		r.qmu.Unlock()
		for _, c := range batch {
			c.err = err
			close(c.done)
		}
		return
	}
	entries := make([]*entry, len(batch))
	for i, c := range batch {
		entries[i] = c.entry
	}
	r.publish(entries...)
	r.qmu.Lock()
	for _, c := range batch {
		if s := r.replay.seen[c.key]; s != nil && s.pending == c {
			s.pending = nil
		}
	}
	r.qmu.Unlock()
	for _, c := range batch {
		close(c.done)
	}
}
