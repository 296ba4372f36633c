package jobs

import (
	"bytes"
	"path"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"time"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
)

// Under WebAssembly the collector runs on the worker's only thread: every
// collection during a file's reading is time the operator waits, while a
// file's garbage is nearly all dropped at once, when the job ends. So the
// reading jobs may run as a short batch (SetBatchGC): the collector set
// to let the heap grow further (a higher GOGC, or off), within a budget
// of memory over what the heap held when the job began (a memory limit,
// never above the worker's own), then set back once the job's result is
// posted, and the memory the job let go collected then, while the page
// shows the result. WebAssembly's memory never shrinks: the budget is
// what a file may add to it for the sake of speed, and the next file
// reuses it rather than growing it. A file too big for the budget makes
// the collector run once it is spent: from that first collection on, the
// job goes on with the collector as usual, since a limit the live heap
// nears would have it collect over and over. A JSON file runs as usual
// throughout: its decoded values are most of what it allocates and stay
// live, so that a batch only made it slower, growing memory it would
// otherwise have reused.

// gcBatch is the collector's setting for the reading jobs.
type gcBatch struct {
	// percent is GOGC during a batch (-1: off); 0 leaves the collector
	// as it is. budget is the memory a batch may add to the heap before
	// the collector runs all the same; 0 for no budget but the worker's
	// memory limit.
	percent int
	budget  int64

	mu sync.Mutex
	// normal and limit are GOGC and the memory limit outside batches;
	// running counts the batches under way, returned those whose job has
	// returned but whose result is not posted yet; tuned says the batch's
	// setting is in force, gen counts the settings made.
	normal, running, returned int
	limit                     int64
	tuned                     bool
	gen                       int
	// pending says the garbage of the last batch is not collected yet;
	// idle, when set, waits for the worker to be idle before it is
	// (SetBatchGC).
	pending bool
	idle    func()
	// free returns the garbage: debug.FreeOSMemory but in tests.
	free func()
	// stopped says the server stopped (its Run returned), and halt is
	// closed then: a stopped worker has no garbage worth a collection,
	// and one forced after it stopped would end the batch of a server
	// still running in the same process (a test's next one).
	stopped bool
	halt    chan struct{}
}

// gcSentinel is dropped as a batch begins: its finalizer runs after the
// first collection since. (It holds a pointer so that it is an object
// of its own, which the tiny allocator would not make it.)
type gcSentinel struct {
	gen int
	_   *byte
}

// SetBatchGC makes the reading jobs (open, prepare) run with GOGC set to
// percent (-1 turns the collector off) and, when budget is above 0, the
// memory limit at budget bytes over the heap in use as the job begins
// (at most the limit set before); both are set back once the job's
// result is posted, then a collection returns the job's garbage. A
// percent of 0, the default, leaves the collector alone. Call it before
// Run.
//
// The collection waits until the worker had no new reading job for
// collectIdle: it takes the worker's only thread under WebAssembly for
// as long as it marks what the worker holds (80-140 ms after a 10,000-row
// file), and a file sent right after the last one waited for it before
// the worker began to read it. A reading job that begins meanwhile counts
// the garbage within its own budget instead.
func (s *Server) SetBatchGC(percent int, budget int64) {
	s.gc.percent, s.gc.budget = percent, budget
	s.gc.halt = make(chan struct{})
	s.gc.idle = s.gc.waitIdle
	s.gc.free = debug.FreeOSMemory
}

// waitIdle waits collectIdle, or less if the server stops meanwhile.
func (g *gcBatch) waitIdle() {
	t := time.NewTimer(collectIdle)
	defer t.Stop()
	select {
	case <-t.C:
	case <-g.halt:
	}
}

// stop tells the batches that the server stopped: no garbage of theirs
// is collected from then on.
func (g *gcBatch) stop() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.stopped && g.halt != nil {
		close(g.halt)
	}
	g.stopped = true
}

// collectIdle is how long the worker waits without a new reading job
// before it collects a batch's garbage: longer than a page takes to show
// a result and send the next file, shorter than an operator reads it.
const collectIdle = time.Second

// batched runs job as a batch of the collector (SetBatchGC) when it
// reads a table.
func (s *Server) batched(job runner.Func) runner.Func {
	return func(c *runner.Call) (any, error) {
		if s.gc.percent == 0 || !s.readsTable(c) {
			return job(c)
		}
		s.gc.begin()
		defer s.gc.jobReturned()
		return job(c)
	}
}

// readsTable reports whether a reading job reads a workbook, a CSV file or
// pasted rows rather than a JSON file, as ingest.Open tells them apart: a
// .json file, or one without an extension that starts as JSON does.
func (s *Server) readsTable(c *runner.Call) bool {
	var req struct {
		FileName string `json:"fileName"`
		Text     string `json:"text"`
		Document int    `json:"document"`
	}
	if c.Decode(&req) != nil {
		return false
	}
	if req.Document != 0 {
		d, err := s.documents.Get(req.Document)
		return err == nil && (d.file == nil || d.file.Format != ingest.JSON)
	}
	if req.Text != "" {
		return true
	}
	switch strings.ToLower(path.Ext(req.FileName)) {
	case ".json":
		return false
	case "":
		start := bytes.TrimLeft(c.Data, " \t\r\n\ufeff")
		return len(start) == 0 || start[0] != '[' && start[0] != '{'
	}
	return true
}

func (g *gcBatch) begin() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.running == 0 {
		g.normal = debug.SetGCPercent(g.percent)
		g.limit = debug.SetMemoryLimit(-1)
		if g.budget > 0 {
			// The garbage of a batch not collected yet counts in this
			// one's budget: the budget is over the heap last found live.
			name := "/memory/classes/heap/objects:bytes"
			if g.pending {
				name = "/gc/heap/live:bytes"
			}
			heap := []metrics.Sample{{Name: name}}
			metrics.Read(heap)
			debug.SetMemoryLimit(min(g.limit, int64(heap[0].Value.Uint64())+g.budget))
		}
		g.pending = false
		g.tuned = true
		g.gen++
		runtime.SetFinalizer(&gcSentinel{gen: g.gen}, g.collected)
	}
	g.running++
}

// collected hears of the first collection since a batch began: the
// budget is spent, and the job goes on with the collector as usual.
func (g *gcBatch) collected(s *gcSentinel) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if s.gen == g.gen {
		g.restore()
	}
}

// restore sets the collector back as it was outside batches; g.mu is
// held.
func (g *gcBatch) restore() {
	if g.tuned {
		debug.SetGCPercent(g.normal)
		debug.SetMemoryLimit(g.limit)
		g.tuned = false
	}
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
	if g.running > 0 {
		g.mu.Unlock()
		return
	}
	g.restore()
	g.pending = true
	gen := g.gen
	g.mu.Unlock()
	if g.idle == nil {
		g.collect(gen)
		return
	}
	go func() {
		g.idle()
		g.collect(gen)
	}()
}

// collect returns the garbage of batch gen, unless another batch began
// since (that one counts the garbage within its budget (begin), and its
// own end collects both) or the server stopped.
func (g *gcBatch) collect(gen int) {
	g.mu.Lock()
	due := g.pending && g.running == 0 && g.gen == gen && !g.stopped
	if due {
		g.pending = false
	}
	g.mu.Unlock()
	if due {
		g.free()
	}
}
