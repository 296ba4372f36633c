package jobs

import "github.com/bulkdesk/bulkdesk/app/wire"

// phaseTiming times the parts of the reading jobs (open, prepare) for
// wire.Prepared.Phases, once TimePhases gave it a clock.
type phaseTiming struct {
	// now is the time in ms since the Unix epoch; fetched and started
	// are when the worker's program was downloaded and began to run.
	now              func() float64
	fetched, started float64
	// job holds the running job's phases, nil between jobs; last is
	// when the part under way began.
	job  *wire.Phases
	last float64
}

// The parts of a reading job that lap ends.
const (
	partRead = iota
	partValidate
	partReview
)

// TimePhases makes the reading jobs say where their time went
// (wire.Phases), read on now, in milliseconds since the Unix epoch (the
// browser's performance.timeOrigin + performance.now()); fetched and
// started are when the worker's program was downloaded and began to run,
// or 0. Without it, the jobs send no phases. Call it before Run.
func (s *Server) TimePhases(now func() float64, fetched, started float64) {
	s.timing = phaseTiming{now: now, fetched: fetched, started: started}
}

// beginPhases starts timing a reading job.
func (s *Server) beginPhases() {
	t := &s.timing
	if t.now == nil {
		return
	}
	t.last = t.now()
	t.job = &wire.Phases{Fetched: t.fetched, Started: t.started, Begun: t.last}
}

// lap ends a part of the job under way: the time since the last lap
// counts as that part.
func (s *Server) lap(part int) {
	t := &s.timing
	if t.job == nil {
		return
	}
	now := t.now()
	d := now - t.last
	t.last = now
	switch part {
	case partRead:
		t.job.Read += d
	case partValidate:
		t.job.Validate += d
	case partReview:
		t.job.Review += d
	}
}

// endPhases ends the job's timing and returns its phases, nil when
// untimed.
func (s *Server) endPhases() *wire.Phases {
	t := &s.timing
	p := t.job
	if p != nil {
		p.Ended = t.now()
	}
	t.job = nil
	return p
}
