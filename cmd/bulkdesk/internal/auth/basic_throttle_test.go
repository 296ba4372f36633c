package auth_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/auth"
)

// throttledBasic is Basic on a clock the test moves, with what it tells
// of its refusals.
type throttledBasic struct {
	h         http.Handler
	now       time.Time
	mu        sync.Mutex
	failures  map[string]int // by reason
	throttled map[string]int // by what failed too often
	log       bytes.Buffer
}

func newThrottledBasic(t *testing.T, trusted ...netip.Prefix) *throttledBasic {
	t.Helper()
	b := &throttledBasic{now: time.Unix(1_800_000_000, 0), failures: map[string]int{}, throttled: map[string]int{}}
	h, err := auth.Basic(htpasswd(t, "ada:"+hash(t, "s3cret")), auth.BasicOptions{
		TrustedProxies: trusted,
		Now:            func() time.Time { return b.now },
		Refusals: auth.Refusals{
			Logger:    slog.New(slog.NewTextHandler(syncWriter{&b.mu, &b.log}, nil)),
			Failed:    func(reason string) { b.count(b.failures, reason) },
			Throttled: func(by string) { b.count(b.throttled, by) },
		},
	}, whoami)
	if err != nil {
		t.Fatal(err)
	}
	b.h = h
	return b
}

func (b *throttledBasic) count(m map[string]int, key string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	m[key]++
}

type syncWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (s syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// signIn tries name and password from peer (an address, or
// "address|X-Forwarded-For") and returns the status with its Retry-After.
func (b *throttledBasic) signIn(name, password, peer string) string {
	r := httptest.NewRequest("GET", "/", nil)
	addr, xff, _ := strings.Cut(peer, "|")
	r.RemoteAddr = addr + ":5555"
	if strings.Contains(addr, ":") {
		r.RemoteAddr = "[" + addr + "]:5555"
	}
	if xff != "" {
		r.Header.Set("X-Forwarded-For", xff)
	}
	r.SetBasicAuth(name, password)
	res, _ := do(b.h, r)
	if after := res.Header.Get("Retry-After"); after != "" {
		return fmt.Sprintf("%d after %s", res.StatusCode, after)
	}
	return fmt.Sprint(res.StatusCode)
}

// failTimes makes n failed sign-ins as name from peer, each as soon as
// the wait before it is over, and says whether any was refused unchecked.
func (b *throttledBasic) failTimes(t *testing.T, n int, name, peer string) {
	t.Helper()
	for i := 1; i <= n; i++ {
		if got := b.signIn(name, "guess-42", peer); got != "401" {
			t.Fatalf("failure %d of %s from %s: %s, want 401", i, name, peer, got)
		}
		if i > 5 && i < 10 {
			b.now = b.now.Add(time.Second << (i - 6))
		}
	}
}

// schedule is what a name meets, failing again and again from an address
// of its own: the answers, each with its Retry-After.
func (b *throttledBasic) schedule(name, peer string) []string {
	var got []string
	for _, wait := range []time.Duration{0, 0, 0, 0, 0, 0, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 15 * time.Minute} {
		b.now = b.now.Add(wait)
		got = append(got, b.signIn(name, "guess-1", peer), b.signIn(name, "guess-2", peer))
	}
	return got
}

func TestBasicSlowsThenLocksOutRepeatedFailures(t *testing.T) {
	b := newThrottledBasic(t)
	b.failTimes(t, 5, "ada", "10.0.0.1")
	for i, step := range []struct {
		wait time.Duration
		want string
	}{
		{0, "401"},                   // the 6th failure: the next attempt waits 1 s
		{0, "429 after 1"},           // even with the right password
		{time.Second, "401"},         // the 7th: 2 s
		{time.Second, "429 after 1"}, // half way
		{time.Second, "401"},         // the 8th: 4 s
		{4 * time.Second, "401"},     // the 9th: 8 s
		{8 * time.Second, "401"},     // the 10th: locked out for 15 minutes
		{0, "429 after 900"},         //
		{14 * time.Minute, "429 after 60"},
		{time.Minute, "401"},      // the 11th: 15 minutes again
		{15 * time.Minute, "200"}, // the right password, at last
		{0, "401"},                // the name starts afresh
	} {
		b.now = b.now.Add(step.wait)
		password := "guess-42"
		if strings.HasPrefix(step.want, "429") || step.want == "200" {
			password = "s3cret"
		}
		if got := b.signIn("ada", password, "10.0.0.1"); got != step.want {
			t.Errorf("step %d: %s, want %s", i, got, step.want)
		}
	}
}

func TestBasicThrottlesAnUnknownNameAsAKnownOne(t *testing.T) {
	b := newThrottledBasic(t)
	known := b.schedule("ada", "10.0.0.1")
	if want := "401 401 401 401 401 401 429 after 1 429 after 1 429 after 1 429 after 1 429 after 1 429 after 1 " +
		"401 429 after 2 401 429 after 4 401 429 after 8 401 429 after 900 401 429 after 900"; strings.Join(known, " ") != want {
		t.Errorf("a known name failing:\n got %v\nwant %s", known, want)
	}
	b = newThrottledBasic(t)
	unknown := b.schedule("nobody", "10.0.0.2")
	if strings.Join(known, " ") != strings.Join(unknown, " ") {
		t.Errorf("a known name failing:\n%v\nan unknown name:\n%v", known, unknown)
	}
	if b.failures[auth.ReasonUnknownUser] == 0 || b.failures[auth.ReasonWrongPassword] != 0 {
		t.Errorf("refusals counted %v, want unknown_user only", b.failures)
	}
}

func TestBasicThrottlesByNameAndByAddress(t *testing.T) {
	b := newThrottledBasic(t)
	b.failTimes(t, 10, "ada", "10.0.0.1")
	for _, tc := range []struct{ name, peer, want string }{
		{"ada", "10.0.0.2", "429 after 900"},   // the name, from elsewhere
		{"carol", "10.0.0.1", "429 after 900"}, // the address, for another name
		{"carol", "10.0.0.2", "401"},
	} {
		if got := b.signIn(tc.name, "s3cret", tc.peer); got != tc.want {
			t.Errorf("%s from %s: %s, want %s", tc.name, tc.peer, got, tc.want)
		}
	}
	if b.throttled["name"] != 1 || b.throttled["address"] != 1 {
		t.Errorf("throttled counted %v, want name 1, address 1", b.throttled)
	}

	// One password tried on many names from one address.
	b = newThrottledBasic(t)
	for i := 1; i <= 6; i++ {
		if got := b.signIn(fmt.Sprintf("user%d", i), "Summer2026!", "10.0.0.3"); got != "401" {
			t.Fatalf("user%d: %s, want 401", i, got)
		}
	}
	if got := b.signIn("user7", "Summer2026!", "10.0.0.3"); got != "429 after 1" {
		t.Errorf("a 7th name from the same address at once: %s, want 429 after 1", got)
	}
	// An IPv6 machine picks its addresses from a /64.
	b.failTimes(t, 10, "eve", "2001:db8:1:2::1")
	if got := b.signIn("frank", "x", "2001:db8:1:2:ffff::9"); got != "429 after 900" {
		t.Errorf("another address of the same /64: %s, want 429 after 900", got)
	}
	if got := b.signIn("frank", "x", "2001:db8:1:3::1"); got != "401" {
		t.Errorf("another /64: %s, want 401", got)
	}
	// An hour after its latest failure, an address is forgotten.
	b.now = b.now.Add(time.Hour)
	b.failTimes(t, 5, "eve", "2001:db8:1:2::1")
}

func TestBasicBelievesXForwardedForOnlyFromTrustedProxies(t *testing.T) {
	// From an untrusted peer, whatever X-Forwarded-For says, the peer is
	// the client.
	b := newThrottledBasic(t)
	for i := 1; i <= 6; i++ {
		if got := b.signIn("ada", "guess-42", fmt.Sprintf("10.0.0.1|203.0.113.%d", i)); got != "401" {
			t.Fatalf("failure %d: %s", i, got)
		}
	}
	if got := b.signIn("carol", "x", "10.0.0.1|203.0.113.99"); got != "429 after 1" {
		t.Errorf("a made-up X-Forwarded-For from an untrusted peer: %s, want 429 after 1", got)
	}

	// Behind a trusted load balancer, the client is the address it
	// appended, not what the client wrote before it.
	b = newThrottledBasic(t, netip.MustParsePrefix("10.0.0.0/24"))
	b.failTimes(t, 10, "ada", "10.0.0.1|203.0.113.1")
	for _, tc := range []struct{ peer, want string }{
		{"10.0.0.1|203.0.113.2", "401"},
		{"10.0.0.1|203.0.113.1", "429 after 900"},
		{"10.0.0.1|203.0.113.2, 203.0.113.1", "429 after 900"},    // the client's own X-Forwarded-For
		{"10.0.0.1|203.0.113.1, 10.0.0.7", "429 after 900"},       // two trusted hops
		{"10.0.0.1|203.0.113.1:4711", "429 after 900"},            // with a port
		{"10.0.0.9|not an address, 203.0.113.1", "429 after 900"}, //
		{"10.0.0.1", "401"},                                       // the balancer's own address
		{"192.0.2.1|203.0.113.1", "401"},                          // not from the balancer
	} {
		if got := b.signIn("carol", "x", tc.peer); got != tc.want {
			t.Errorf("carol from %s: %s, want %s", tc.peer, got, tc.want)
		}
	}
}

func TestBasicCountsAttemptsMadeAtOnce(t *testing.T) {
	b := newThrottledBasic(t)
	answers := make(chan string, 30)
	var wg sync.WaitGroup
	for range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers <- b.signIn("ada", "guess-42", "10.0.0.1")
		}()
	}
	wg.Wait()
	close(answers)
	checked := 0
	for a := range answers {
		if a == "401" {
			checked++
		}
	}
	// The clock stands still: five free failures and a sixth, whose
	// wait refuses the rest.
	if checked != 6 {
		t.Errorf("%d of 30 attempts made at once were checked, want 6", checked)
	}
}

func TestBasicLogsFailuresWithoutThePassword(t *testing.T) {
	b := newThrottledBasic(t)
	b.failTimes(t, 6, "ada", "10.0.0.1")
	b.signIn("nobody", "hunter2-secret", "10.0.0.2")
	b.signIn("ada", "s3cret", "10.0.0.1") // throttled: not logged
	log := b.log.String()
	for _, want := range []string{
		`msg="sign-in refused" reason=wrong_password user=ada client=10.0.0.1 failures=6 next_attempt_in=1s`,
		`msg="sign-in refused" reason=unknown_user user=nobody client=10.0.0.2 failures=1 next_attempt_in=0s`,
	} {
		if !strings.Contains(log, want) {
			t.Errorf("no %s in the log:\n%s", want, log)
		}
	}
	for _, secret := range []string{"hunter2", "guess-42", "s3cret"} {
		if strings.Contains(log, secret) {
			t.Errorf("the log holds the password %q:\n%s", secret, log)
		}
	}
	if n := strings.Count(log, "\n"); n != 7 {
		t.Errorf("%d log lines, want 7 (one per failure):\n%s", n, log)
	}
}

func TestBasicSessionOutlastsALockout(t *testing.T) {
	b := newThrottledBasic(t)
	r := httptest.NewRequest("GET", "/", nil)
	r.SetBasicAuth("ada", "s3cret")
	res, _ := do(b.h, r)
	cookies := res.Cookies()
	b.failTimes(t, 10, "ada", "10.0.0.1")
	r = httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "10.0.0.1:5555"
	for _, c := range cookies {
		r.AddCookie(c)
	}
	if res, body := do(b.h, r); res.StatusCode != http.StatusOK || body != "ada||" {
		t.Errorf("an open session while its name is locked out: %d %q", res.StatusCode, body)
	}
}
