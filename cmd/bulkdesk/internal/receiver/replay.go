package receiver

import "time"

// replayGuard remembers the (signature-v2, published-timestamp) pairs of
// accepted events until their timestamp leaves the tolerance window, after
// which the window check refuses them anyway. It is not safe for
// concurrent use; the Receiver's lock guards it.
type replayGuard struct {
	until     map[string]time.Time
	nextSweep int
}

func newReplayGuard() *replayGuard {
	return &replayGuard{until: map[string]time.Time{}, nextSweep: 1024}
}

func replayKey(signature []byte, timestamp string) string {
	return string(signature) + "\x00" + timestamp
}

// seen reports whether key was accepted and is still remembered at now.
func (g *replayGuard) seen(key string, now time.Time) bool {
	until, ok := g.until[key]
	return ok && !now.After(until)
}

// add remembers key until the given time, sweeping out expired pairs now
// and then so the map stays as small as the window's traffic.
func (g *replayGuard) add(key string, until, now time.Time) {
	g.until[key] = until
	if len(g.until) < g.nextSweep {
		return
	}
	for k, u := range g.until {
		if now.After(u) {
			delete(g.until, k)
		}
	}
	g.nextSweep = max(1024, 2*len(g.until))
}

// forget drops key, for an event that could not be stored after all.
func (g *replayGuard) forget(key string) { delete(g.until, key) }
