// Package backoff is the growing pause of the server's loops that try
// again until something answers: the shared database at start, its
// stream of events, the receiver joining it.
package backoff

import (
	"context"
	"time"
)

// The first pause, and the longest: a server back within seconds of its
// database, without a thundering herd of reconnections.
const (
	First = 100 * time.Millisecond
	Max   = 5 * time.Second
)

// A Pause is the wait before the next attempt: First, doubling up to Max.
// The zero value is ready to use.
type Pause struct{ next time.Duration }

// Wait waits the pause, then doubles the next one; it returns false when
// ctx ended first.
func (p *Pause) Wait(ctx context.Context) bool {
	if p.next == 0 {
		p.next = First
	}
	t := time.NewTimer(p.next)
	defer t.Stop()
	p.next = min(2*p.next, Max)
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// Reset makes the next pause the first again, after a success.
func (p *Pause) Reset() { p.next = First }
