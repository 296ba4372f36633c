package receiver_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/receiver"
)

// syncGate is a sync hook that holds the first fsync until released and
// records how many events each fsync covers.
type syncGate struct {
	entered chan struct{} // receives once the first fsync is held
	release chan struct{}
	mu      sync.Mutex
	sizes   []int
	fail    error // returned by every fsync when set
	queued  chan struct{}
}

func newSyncGate() *syncGate {
	return &syncGate{entered: make(chan struct{}), release: make(chan struct{}), queued: make(chan struct{}, 1024)}
}

func (g *syncGate) install(cfg *receiver.Config) {
	receiver.SetSyncHook(cfg, g.hook)
	receiver.SetQueuedHook(cfg, func() { g.queued <- struct{}{} })
}

func (g *syncGate) hook(events int) error {
	g.mu.Lock()
	g.sizes = append(g.sizes, events)
	first := len(g.sizes) == 1
	g.mu.Unlock()
	if first {
		close(g.entered)
		<-g.release
	}
	return g.fail
}

func (g *syncGate) syncs() []int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]int(nil), g.sizes...)
}

// postAsync posts a signed event from a goroutine and delivers its answer.
func postAsync(t *testing.T, url, ref, body string) <-chan answer {
	ch := make(chan answer, 1)
	req := signedRequest(t, url, "/transfers/watch", ref, body, time.Now())
	go func() {
		resp, err := client.Do(req)
		if err != nil {
			ch <- answer{}
			return
		}
		resp.Body.Close()
		ch <- answer{status: resp.StatusCode}
	}()
	return ch
}

func TestNoAnswerBeforeTheEventIsOnDisk(t *testing.T) {
	g := newSyncGate()
	cfg := receiver.Config{Dir: t.TempDir()}
	g.install(&cfg)
	ts := startServer(t, cfg)

	answered := postAsync(t, ts.URL, "ref", `{"n":1}`)
	<-g.entered // the fsync covering the event has started and is held
	select {
	case a := <-answered:
		t.Fatalf("answered %d before the event was on disk", a.status)
	default:
	}
	if evs := listEvents(t, ts.URL, ""); len(evs) != 0 {
		t.Errorf("the event is listed before it is on disk: %+v", evs)
	}
	close(g.release)
	if a := <-answered; a.status != http.StatusNoContent {
		t.Fatalf("answer %d", a.status)
	}
	if evs := listEvents(t, ts.URL, ""); len(evs) != 1 {
		t.Errorf("%d events listed after the sync", len(evs))
	}
}

// While one fsync runs, the events that arrive meanwhile are covered by
// the next one, all together; with PerEventFsync each has its own.
func TestGroupCommitSharesOneSync(t *testing.T) {
	const waiting = 8
	for _, perEvent := range []bool{false, true} {
		t.Run(fmt.Sprintf("per-event=%v", perEvent), func(t *testing.T) {
			g := newSyncGate()
			cfg := receiver.Config{Dir: t.TempDir(), PerEventFsync: perEvent}
			g.install(&cfg)
			ts := startServer(t, cfg)

			answers := []<-chan answer{postAsync(t, ts.URL, "ref-0", `{"n":0}`)}
			<-g.queued
			<-g.entered
			for i := 1; i <= waiting; i++ {
				answers = append(answers, postAsync(t, ts.URL, fmt.Sprintf("ref-%d", i), fmt.Sprintf(`{"n":%d}`, i)))
			}
			for range waiting {
				<-g.queued
			}
			close(g.release)
			for i, ch := range answers {
				if a := <-ch; a.status != http.StatusNoContent {
					t.Errorf("event %d: %d", i, a.status)
				}
			}
			got := fmt.Sprint(g.syncs())
			want := "[1 8]"
			if perEvent {
				want = "[1 1 1 1 1 1 1 1 1]"
			}
			if got != want {
				t.Errorf("events per fsync %s, want %s", got, want)
			}
			if n := len(listEvents(t, ts.URL, "")); n != waiting+1 {
				t.Errorf("%d events listed", n)
			}
		})
	}
}

func TestAFailedSyncIsNotAnAcceptance(t *testing.T) {
	var fail atomic.Bool
	fail.Store(true)
	dir := t.TempDir()
	cfg := receiver.Config{Dir: dir}
	receiver.SetSyncHook(&cfg, func(int) error {
		if fail.Load() {
			return errors.New("disk on fire")
		}
		return nil
	})
	ts := startServer(t, cfg)
	if a := post(t, ts.URL, "/transfers/watch", `{"n":1}`); a.status != http.StatusServiceUnavailable || !strings.Contains(a.refusal.Error, "could not be stored") {
		t.Fatalf("answer %d %s", a.status, a.raw)
	}
	if evs := listEvents(t, ts.URL, ""); len(evs) != 0 {
		t.Errorf("a refused event is listed: %+v", evs)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "events.jsonl")); len(data) != 0 {
		t.Errorf("a refused event is in the file: %s", data)
	}
	// The sender's retry is a new event, not a duplicate of the refused one.
	fail.Store(false)
	if a := post(t, ts.URL, "/transfers/watch", `{"n":1}`); a.status != http.StatusNoContent {
		t.Fatalf("retry: %d %s", a.status, a.raw)
	}
	if evs := listEvents(t, ts.URL, ""); len(evs) != 1 {
		t.Errorf("%d events after the retry", len(evs))
	}
	if !strings.Contains(ts.logs.String(), "disk on fire") {
		t.Errorf("the failure is not logged:\n%s", ts.logs)
	}
}

// A copy that arrives while the original's fsync runs waits for it, and is
// answered as a duplicate once the original is on disk.
func TestACopyWaitsForTheOriginal(t *testing.T) {
	g := newSyncGate()
	cfg := receiver.Config{Dir: t.TempDir()}
	g.install(&cfg)
	copyWaits := make(chan struct{}, 1)
	receiver.SetCopyWaitsHook(&cfg, func() { copyWaits <- struct{}{} })
	ts := startServer(t, cfg)
	first := postAsync(t, ts.URL, "ref", `{"n":1}`)
	<-g.entered
	copyReq := signedRequest(t, ts.URL, "/transfers/watch", "ref", `{"n":1}`, time.Now())
	copyAnswer := make(chan answer, 1)
	go func() {
		resp, err := client.Do(copyReq)
		if err != nil {
			copyAnswer <- answer{raw: err.Error()}
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		copyAnswer <- answer{status: resp.StatusCode, raw: string(b)}
	}()
	<-copyWaits
	select {
	case a := <-copyAnswer:
		t.Fatalf("the copy was answered %d before the original was on disk", a.status)
	default:
	}
	close(g.release)
	if a := <-first; a.status != http.StatusNoContent {
		t.Errorf("original: %d", a.status)
	}
	if a := <-copyAnswer; a.status != http.StatusOK || !strings.Contains(a.raw, `"duplicate":true`) {
		t.Errorf("copy: %d %s", a.status, a.raw)
	}
	if n := len(listEvents(t, ts.URL, "")); n != 1 {
		t.Errorf("%d events kept", n)
	}
	if got := g.syncs(); len(got) != 1 {
		t.Errorf("fsyncs %v: the copy was written", got)
	}
}

// A request waits for its fsync a bounded time only. The event may still
// reach the disk after its 503, so the sender's retry is answered as a
// duplicate and the event is stored once.
func TestTheWaitForTheSyncIsBounded(t *testing.T) {
	g := newSyncGate()
	cfg := receiver.Config{Dir: t.TempDir(), SyncTimeout: time.Millisecond}
	g.install(&cfg)
	ts := startServer(t, cfg)
	// The fsync is held until released, so the millisecond always runs out.
	req := signedRequest(t, ts.URL, "/transfers/watch", "ref", `{"n":1}`, time.Now())
	if a := do(t, req); a.status != http.StatusServiceUnavailable || !strings.Contains(a.refusal.Error, "not on disk within 1ms") {
		t.Fatalf("answer %d %s", a.status, a.raw)
	}
	close(g.release)
	<-g.queued
	// The retry waits for the same fsync or finds the event stored.
	retry := signedRequest(t, ts.URL, "/transfers/watch", "ref", `{"n":1}`, time.Now())
	for attempt := 1; ; attempt++ {
		a := do(t, retry)
		if a.status == http.StatusOK {
			break
		}
		if a.status != http.StatusServiceUnavailable || attempt == 1000 {
			t.Fatalf("retry: %d %s", a.status, a.raw)
		}
		retry = signedRequest(t, ts.URL, "/transfers/watch", "ref", `{"n":1}`, time.Now())
	}
	if n := len(listEvents(t, ts.URL, "")); n != 1 {
		t.Errorf("%d events kept", n)
	}
}
