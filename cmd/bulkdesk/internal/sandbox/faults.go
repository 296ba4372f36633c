package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
)

// A Fault is a way the sandbox misbehaves on purpose.
type Fault string

// The faults.
const (
	// Fail answers 500 without acting on the request.
	Fail Fault = "500"
	// RateLimit answers 429 with rate-limit headers, without acting.
	RateLimit Fault = "429"
	// Drop acts on the request, then closes the connection without an
	// answer: the client cannot know that it succeeded.
	Drop Fault = "drop"
	// Pass serves the request as usual: queued before other faults, it
	// lets requests through first (the bulk list a client reads before
	// it submits).
	Pass Fault = "pass"
)

// FaultHeader arms faults from a request: "500", "429" or "drop", with an
// optional "; n=N" to fault this request and the N-1 that follow.
const FaultHeader = "sandbox-fault"

// Random gives the share (0 to 1) of requests that get each fault.
type Random struct {
	Fail      float64 `json:"fail"`
	RateLimit float64 `json:"rateLimit"`
	Drop      float64 `json:"drop"`
}

// Faults is the switchboard of faults: a queue of faults for the next
// requests, then random ones. It is safe for concurrent use.
type Faults struct {
	mu       sync.Mutex
	queue    []Fault
	random   Random
	rng      *rand.Rand
	injected map[Fault]int
}

func newFaults() *Faults {
	return &Faults{rng: rand.New(rand.NewPCG(1, 2)), injected: make(map[Fault]int)}
}

// Next makes the next n requests get fault f (after those already queued).
func (f *Faults) Next(fault Fault, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for range n {
		f.queue = append(f.queue, fault)
	}
}

// SetRandom makes requests fault at random, reproducibly for a seed.
func (f *Faults) SetRandom(r Random, seed uint64) error {
	if r.Fail < 0 || r.RateLimit < 0 || r.Drop < 0 || r.Fail+r.RateLimit+r.Drop > 1 {
		return fmt.Errorf("random fault shares %+v must be 0 or more and add up to at most 1", r)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.random = r
	f.rng = rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	return nil
}

// Clear stops every fault, queued and random.
func (f *Faults) Clear() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queue, f.random = nil, Random{}
}

// Injected returns how many times each fault was served.
func (f *Faults) Injected() map[Fault]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make(map[Fault]int, len(f.injected))
	for k, v := range f.injected {
		out[k] = v
	}
	return out
}

// take returns the fault for the current request, or "".
func (f *Faults) take() Fault {
	f.mu.Lock()
	defer f.mu.Unlock()
	var got Fault
	if len(f.queue) > 0 {
		got, f.queue = f.queue[0], f.queue[1:]
	} else if x := f.rng.Float64(); x < f.random.Fail {
		got = Fail
	} else if x < f.random.Fail+f.random.RateLimit {
		got = RateLimit
	} else if x < f.random.Fail+f.random.RateLimit+f.random.Drop {
		got = Drop
	}
	if got == Pass {
		return ""
	}
	if got != "" {
		f.injected[got]++
	}
	return got
}

// parseFaultHeader reads "500", "429; n=3", "drop;n=2".
func parseFaultHeader(h string) (Fault, int, error) {
	kind, rest, _ := strings.Cut(h, ";")
	fault := Fault(strings.TrimSpace(kind))
	if fault != Fail && fault != RateLimit && fault != Drop {
		return "", 0, fmt.Errorf("%s %q: want 500, 429 or drop, optionally followed by \"; n=N\"", FaultHeader, h)
	}
	n := 1
	if rest = strings.TrimSpace(rest); rest != "" {
		v, ok := strings.CutPrefix(rest, "n=")
		k, err := strconv.Atoi(strings.TrimSpace(v))
		if !ok || err != nil || k < 1 || k > 10000 {
			return "", 0, fmt.Errorf("%s %q: n must be a number from 1 to 10000", FaultHeader, h)
		}
		n = k
	}
	return fault, n, nil
}

// serveWithFaults serves a request, misbehaving if a fault is due.
func (s *Sandbox) serveWithFaults(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/sandbox/") {
		s.mux.ServeHTTP(w, r)
		return
	}
	if h := r.Header.Get(FaultHeader); h != "" {
		fault, n, err := parseFaultHeader(h)
		if err != nil {
			badRequest(w, err.Error())
			return
		}
		s.faults.mu.Lock()
		s.faults.queue = append(make([]Fault, n, n+len(s.faults.queue)), s.faults.queue...)
		for i := range n {
			s.faults.queue[i] = fault
		}
		s.faults.mu.Unlock()
	}
	switch s.faults.take() {
	case Fail:
		writeJSON(w, http.StatusInternalServerError, message("the sandbox failed on purpose (fault injection)"))
	case RateLimit:
		reset := max(0, int(s.cfg.RateLimitReset.Seconds()))
		w.Header().Set(bulkapi.HeaderRateLimit, "10, 10;w=1")
		w.Header().Set(bulkapi.HeaderRateLimitReset, strconv.Itoa(reset))
		writeJSON(w, http.StatusTooManyRequests, message("too many requests (fault injection)"))
	case Drop:
		s.mux.ServeHTTP(discard{make(http.Header)}, r)
		// The server closes the connection without writing anything.
		panic(http.ErrAbortHandler)
	default:
		s.mux.ServeHTTP(w, r)
	}
}

// discard is a ResponseWriter whose answer is never sent.
type discard struct{ h http.Header }

func (d discard) Header() http.Header         { return d.h }
func (d discard) Write(p []byte) (int, error) { return len(p), nil }
func (d discard) WriteHeader(int)             {}

// faultRequest is the body of POST /sandbox/faults.
type faultRequest struct {
	Pass      int     `json:"pass"`
	Fail      int     `json:"fail"`
	RateLimit int     `json:"rateLimit"`
	Drop      int     `json:"drop"`
	Random    *Random `json:"random"`
	Seed      uint64  `json:"seed"`
	Clear     bool    `json:"clear"`
}

// armFaults serves POST /sandbox/faults; it needs the api-key.
func (s *Sandbox) armFaults(w http.ResponseWriter, r *http.Request) {
	if !s.apiKeyOK(r) {
		writeJSON(w, http.StatusUnauthorized, message("the api-key header is missing or not the sandbox's"))
		return
	}
	var req faultRequest
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<16))
	if err == nil {
		err = json.Unmarshal(data, &req)
	}
	if err == nil && (req.Pass < 0 || req.Fail < 0 || req.RateLimit < 0 || req.Drop < 0) {
		err = fmt.Errorf("counts must be 0 or more")
	}
	if err != nil {
		badRequest(w, `the body must be {"pass": N, "fail": N, "rateLimit": N, "drop": N, "random": {"fail": x, "rateLimit": x, "drop": x}, "seed": N, "clear": bool}: `+err.Error())
		return
	}
	if req.Clear {
		s.faults.Clear()
	}
	if req.Random != nil {
		if err := s.faults.SetRandom(*req.Random, req.Seed); err != nil {
			badRequest(w, err.Error())
			return
		}
	}
	s.faults.Next(Pass, req.Pass)
	s.faults.Next(Fail, req.Fail)
	s.faults.Next(RateLimit, req.RateLimit)
	s.faults.Next(Drop, req.Drop)
	w.WriteHeader(http.StatusNoContent)
}
