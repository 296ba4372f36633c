package receiver

import (
	"crypto/sha256"
	"encoding/binary"
	"time"
)

// dupKey names an event for the duplicate guard. With a call-ref, it is
// the call-ref and the body: a sender that retries sends the same call-ref
// and body, whether it resends the signed request as it was (same
// signature-v2 and published-timestamp) or signs it again with a new
// timestamp; since signature-v2 signs the call-ref, the body and the
// timestamp, the first case is contained in the second and one key covers
// both. Without a call-ref (the reference makes it optional) nothing tells
// a retry from a new event with the same payload, so only the same
// signature-v2 and published-timestamp make a copy. The event path is
// left out: the signature does not cover it, so the same event sent to
// another path is the same event.
func dupKey(callRef, signatureV2, timestamp string, body []byte) string {
	h := sha256.New()
	field := func(s string) {
		var n [binary.MaxVarintLen64]byte
		h.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
		h.Write([]byte(s))
	}
	if callRef != "" {
		field("call-ref")
		field(callRef)
		h.Write(body)
	} else {
		field("signature-v2")
		field(signatureV2)
		field(timestamp)
	}
	return string(h.Sum(nil))
}

// seenEvent is what the guard knows of an accepted event.
type seenEvent struct {
	// until is when the event is forgotten: the tolerance window after it
	// was received or published, whichever is later. A copy sent later
	// fails the window check of its own timestamp unless it was signed
	// again.
	until time.Time
	seq   uint64
	// pending is the event's write to the events file while it is not yet
	// on disk; a copy arriving meanwhile waits for the same outcome.
	pending *commit
}

// replayGuard remembers the accepted events of the tolerance window, so
// that a copy is stored once and answered as a duplicate. It is not safe
// for concurrent use; the Receiver's queue lock guards it.
type replayGuard struct {
	seen      map[string]*seenEvent
	nextSweep int
}

func newReplayGuard() *replayGuard {
	return &replayGuard{seen: map[string]*seenEvent{}, nextSweep: 1024}
}

// lookup returns what is remembered of key at now, or nil.
func (g *replayGuard) lookup(key string, now time.Time) *seenEvent {
	s, ok := g.seen[key]
	if !ok || s.pending == nil && now.After(s.until) {
		return nil
	}
	return s
}

// add remembers key, sweeping out expired entries now and then so the map
// stays as small as the window's traffic.
func (g *replayGuard) add(key string, s *seenEvent, now time.Time) {
	g.seen[key] = s
	if len(g.seen) < g.nextSweep {
		return
	}
	for k, s := range g.seen {
		if s.pending == nil && now.After(s.until) {
			delete(g.seen, k)
		}
	}
	g.nextSweep = max(1024, 2*len(g.seen))
}

// forget drops key, for an event that could not be stored after all.
func (g *replayGuard) forget(key string) { delete(g.seen, key) }

// guardUntil is how long an event received at received and published at
// published is remembered.
func guardUntil(received, published time.Time, tolerance time.Duration) time.Time {
	if published.After(received) {
		received = published
	}
	return received.Add(tolerance)
}
