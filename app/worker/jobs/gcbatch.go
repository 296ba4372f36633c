package jobs

import (
	"runtime/debug"
	"sync"

	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
)

// Under WebAssembly the collector runs on the worker's only thread: every
// collection during a file's reading is time the operator waits, while a
// file's garbage is nearly all dropped at once, when the job ends. So the
// reading jobs may run as a short batch (SetBatchGC): the collector set
// to let the heap grow further (a higher GOGC, or off, under the memory
// limit the worker sets, which still bounds it), then set back once the
// job's result is posted, and the memory the job let go collected then,
// while the page shows the result (WebAssembly's memory never shrinks,
// but the next file reuses it rather than growing it).

// gcBatch is the collector's setting for the reading jobs.
type gcBatch struct {
	// percent is GOGC during a batch (-1: off); 0 leaves the collector
	// as it is.
	percent int

	mu sync.Mutex
	// normal is GOGC outside batches; running counts the batches under
	// way, returned those whose job has returned but whose result is not
	// posted yet.
	normal, running, returned int
}

// SetBatchGC makes the reading jobs (open, prepare) run with GOGC set to
// percent (-1 turns the collector off until the memory limit), set back
// once the job's result is posted, then a collection that returns the
// job's garbage. 0, the default, leaves the collector alone. Call it
// before Run.
func (s *Server) SetBatchGC(percent int) {
	s.gc.percent = percent
}

// batched runs job as a batch of the collector (SetBatchGC).
func (s *Server) batched(job runner.Func) runner.Func {
	return func(c *runner.Call) (any, error) {
		if s.gc.percent == 0 {
			return job(c)
		}
		s.gc.begin()
		defer s.gc.jobReturned()
		return job(c)
	}
}

func (g *gcBatch) begin() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.running == 0 {
		g.normal = debug.SetGCPercent(g.percent)
	}
	g.running++
}

func (g *gcBatch) jobReturned() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.returned++
}

// posted ends the batch of a job that has returned once a result or an
// error is posted: the runner posts the job's own right after it
// returns.
func (g *gcBatch) posted(m wire.Message) {
	if m.Type != wire.TypeResult && m.Type != wire.TypeError {
		return
	}
	g.mu.Lock()
	if g.returned == 0 {
		g.mu.Unlock()
		return
	}
	g.returned--
	g.running--
	last := g.running == 0
	if last {
		debug.SetGCPercent(g.normal)
	}
	g.mu.Unlock()
	if last {
		debug.FreeOSMemory()
	}
}
