package auth

import (
	"sync"
	"time"
)

// How failed sign-ins slow the next ones, for a name and for a client
// address alike: the first freeFailures cost nothing; each further one
// makes the next attempt wait, firstWait doubling, until the lockAfter-th
// locks attempts out for lockFor, and so does each failure after it. A
// name or address is forgotten forgetAfter after its latest failure. An
// attempt that comes before its wait is over is answered 429 without its
// password being checked, so neither patience nor many connections at
// once buy more guesses.
const (
	freeFailures = 5
	lockAfter    = 10
	firstWait    = time.Second
	lockFor      = 15 * time.Minute
	forgetAfter  = time.Hour
	// defaultRemembered is how many names, and how many addresses, are
	// remembered at most: about 3 MB each at the longest names.
	defaultRemembered = 10_000
)

// waitAfter is how long a name or address waits after its nth failure:
// nothing for the first 5, then 1, 2, 4 and 8 s, then 15 minutes.
func waitAfter(n int) time.Duration {
	switch {
	case n <= freeFailures:
		return 0
	case n < lockAfter:
		return firstWait << (n - freeFailures - 1)
	default:
		return lockFor
	}
}

// throttle counts failed sign-ins by name and by client address.
type throttle struct {
	now func() time.Time
	// mu makes asking and counting one step: attempts sent together
	// cannot all pass before any is counted.
	mu      sync.Mutex
	names   tallies
	clients tallies
}

func newThrottle(now func() time.Time, remembered int) *throttle {
	if now == nil {
		now = time.Now
	}
	if remembered <= 0 {
		remembered = defaultRemembered
	}
	return &throttle{now: now, names: newTallies(remembered), clients: newTallies(remembered)}
}

// try asks whether a sign-in as name from client may be checked now. When
// it may not, wait is how long until it may, and by says what failed too
// often ("name", "address"). When it may, it is in flight until done is
// called, and counts until then as if it had failed: attempts sent
// together cannot all pass before the first is answered. An empty name
// (one no account could have) counts for the address alone.
func (t *throttle) try(name, client string) (wait time.Duration, by string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	keys := t.keys(name, client)
	for _, k := range keys {
		if w := k.tallies.waiting(k.key, now); w > wait {
			wait, by = w, k.by
		}
	}
	if wait > 0 {
		return wait, by
	}
	for _, k := range keys {
		k.tallies.start(k.key, now)
	}
	return 0, ""
}

// done ends an attempt try let through. A failure is counted for its name
// and its address, and failures says how many each has, the larger; next
// is the wait it starts. A success forgets the name's failures and leaves
// the address's: signing in to one's own account between guesses at
// others' buys no more guesses.
func (t *throttle) done(name, client string, ok bool) (failures int, next time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	for _, k := range t.keys(name, client) {
		switch {
		case !ok:
			failures = max(failures, k.tallies.fail(k.key, now))
		case k.by == "name":
			k.tallies.forgive(k.key)
		default:
			k.tallies.end(k.key)
		}
	}
	return failures, waitAfter(failures)
}

type throttleKey struct {
	tallies *tallies
	key, by string
}

func (t *throttle) keys(name, client string) []throttleKey {
	keys := []throttleKey{{&t.clients, client, "address"}}
	if name != "" {
		keys = append(keys, throttleKey{&t.names, name, "name"})
	}
	return keys
}

// tallies are the failures of names, or of addresses, in a map of at
// most limit entries: a client can make up names and, with IPv6,
// addresses without end.
type tallies struct {
	limit int
	m     map[string]*tally
}

type tally struct {
	failures int
	inFlight int       // attempts let through and not yet done
	last     time.Time // the latest failure, or the first attempt
	until    time.Time // attempts are refused until then
}

func newTallies(limit int) tallies {
	return tallies{limit: limit, m: map[string]*tally{}}
}

// live returns the tally of key, dropping it once it is forgotten.
func (ts *tallies) live(key string, now time.Time) *tally {
	t := ts.m[key]
	if t != nil && t.forgotten(now) {
		delete(ts.m, key)
		return nil
	}
	return t
}

func (t *tally) forgotten(now time.Time) bool {
	return now.Sub(t.last) >= forgetAfter
}

// waiting is how long key must still wait before its next attempt: until
// the wait its latest failure started is over, or, while attempts are in
// flight, the wait they would start if they all failed.
func (ts *tallies) waiting(key string, now time.Time) time.Duration {
	t := ts.live(key, now)
	switch {
	case t == nil:
		return 0
	case now.Before(t.until):
		return t.until.Sub(now)
	case t.inFlight > 0:
		return waitAfter(t.failures + t.inFlight)
	}
	return 0
}

// start counts an attempt in flight.
func (ts *tallies) start(key string, now time.Time) {
	t := ts.live(key, now)
	if t == nil {
		if len(ts.m) >= ts.limit {
			ts.evict(now)
		}
		t = &tally{last: now}
		ts.m[key] = t
	}
	t.inFlight++
}

// fail ends an attempt in flight as a failure and returns the failures of
// key.
func (ts *tallies) fail(key string, now time.Time) int {
	t := ts.m[key]
	if t == nil { // made room for others meanwhile
		t = &tally{inFlight: 1}
		ts.m[key] = t
	}
	t.inFlight = max(t.inFlight-1, 0)
	t.failures++
	t.last, t.until = now, now.Add(waitAfter(t.failures))
	return t.failures
}

// end ends an attempt in flight that succeeded.
func (ts *tallies) end(key string) {
	if t := ts.m[key]; t != nil {
		t.inFlight = max(t.inFlight-1, 0)
		if t.inFlight == 0 && t.failures == 0 {
			delete(ts.m, key)
		}
	}
}

// forgive ends an attempt in flight that succeeded and forgets the
// failures before it.
func (ts *tallies) forgive(key string) {
	if t := ts.m[key]; t != nil {
		t.failures, t.until = 0, time.Time{}
		ts.end(key)
	}
}

// evict makes room: it drops the forgotten tallies and, if none was, the
// one with the fewest failures, the oldest first. Names or addresses made
// up to fill the map fail once each, so they go before one that is
// locked out.
func (ts *tallies) evict(now time.Time) {
	var victim string
	var least *tally
	for k, t := range ts.m {
		if t.forgotten(now) {
			delete(ts.m, k)
			continue
		}
		if least == nil || t.failures < least.failures || t.failures == least.failures && t.last.Before(least.last) {
			victim, least = k, t
		}
	}
	if len(ts.m) >= ts.limit && least != nil {
		delete(ts.m, victim)
	}
}
