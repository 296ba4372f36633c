package jobs_test

import (
	"sync"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/wire"
)

// tickingClock is a clock in ms that moves on by one at every reading, so
// that every part a job times takes some time.
type tickingClock struct {
	mu  sync.Mutex
	now float64
}

func (c *tickingClock) read() float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now++
	return c.now
}

func TestAReadingJobSaysWhereItsTimeWent(t *testing.T) {
	clock := &tickingClock{now: 1000}
	h := newHarness(t, func(w *workers) { w.reader.TimePhases(clock.read, 900, 950) })
	body := `[{"pathParams":{},"requestBody":{"profileId":"110321","source":{"type":"managed_accounts","id":"1001"},"destination":{"type":"managed_cards","id":"2001"},"destinationAmount":{"currency":"EUR","amount":1050}}}]`
	for _, f := range []struct{ name, data string }{{"pay.csv", payCSV}, {"pay.json", body}} {
		p := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: f.name, Kind: "transfers", Auto: true}, []byte(f.data)))
		if p.Summary == nil {
			t.Fatalf("%s: not built at once: %+v", f.name, p)
		}
		ph := p.Phases
		if ph == nil {
			t.Fatalf("%s: no phases in the result", f.name)
		}
		if ph.Fetched != 900 || ph.Started != 950 {
			t.Errorf("%s: program fetched %v, started %v; want 900, 950", f.name, ph.Fetched, ph.Started)
		}
		if ph.Read <= 0 || ph.Validate <= 0 || ph.Review <= 0 {
			t.Errorf("%s: read %v, validate %v, review %v: each part should take time", f.name, ph.Read, ph.Validate, ph.Review)
		}
		if sum := ph.Read + ph.Validate + ph.Review; ph.Begun < 1000 || sum > ph.Ended-ph.Begun {
			t.Errorf("%s: parts %v do not fit in the job, %v to %v", f.name, sum, ph.Begun, ph.Ended)
		}
		// A change of how the file is read is timed too.
		p = h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: p.Document, Build: true}, nil))
		if p.Phases == nil || p.Phases.Begun <= ph.Ended {
			t.Errorf("%s: the prepare job's phases %+v, after the open's ending at %v", f.name, p.Phases, ph.Ended)
		}
	}
}

func TestAnUntimedWorkerSendsNoPhases(t *testing.T) {
	h := newHarness(t)
	p := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "pay.csv", Kind: "transfers", Auto: true}, []byte(payCSV)))
	if p.Phases != nil {
		t.Errorf("phases %+v from a worker without a clock", p.Phases)
	}
}
