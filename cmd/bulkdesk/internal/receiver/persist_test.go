package receiver_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/receiver"
)

func TestEventsSurviveARestart(t *testing.T) {
	dir := t.TempDir()
	at := time.Now()
	first := startServer(t, receiver.Config{Dir: dir})
	for _, body := range []string{`{"n":1}`, `{"n":2}`, `{"n":3}`} {
		if a := do(t, signedRequest(t, first.URL, "/transfers/watch", "ref", body, at)); a.status != http.StatusNoContent {
			t.Fatal(a.raw)
		}
	}
	before := listEvents(t, first.URL, "")
	first.stop(t)

	second := startServer(t, receiver.Config{Dir: dir})
	after := listEvents(t, second.URL, "")
	if len(after) != 3 {
		t.Fatalf("%d events after the restart", len(after))
	}
	for i := range after {
		if after[i].Seq != before[i].Seq || after[i].Body != before[i].Body || !after[i].ReceivedAt.Equal(before[i].ReceivedAt) || after[i].Summary.Title != "Transfer" {
			t.Errorf("event %d changed: %+v, was %+v", i, after[i], before[i])
		}
	}
	// The duplicate guard came back with the events: a copy, as sent or
	// signed again, is not stored again.
	if a := do(t, signedRequest(t, second.URL, "/transfers/watch", "ref", `{"n":2}`, at)); a.status != http.StatusOK || !strings.Contains(a.raw, `"seq":2`) {
		t.Errorf("a copy after a restart: %d %s", a.status, a.raw)
	}
	if a := do(t, signedRequest(t, second.URL, "/transfers/watch", "ref", `{"n":3}`, time.Now())); a.status != http.StatusOK || !strings.Contains(a.raw, `"seq":3`) {
		t.Errorf("a copy signed again after a restart: %d %s", a.status, a.raw)
	}
	// Numbering carries on.
	if a := post(t, second.URL, "/transfers/watch", `{"n":4}`); a.status != http.StatusNoContent {
		t.Fatal(a.raw)
	}
	if evs := listEvents(t, second.URL, "?limit=1"); evs[0].Seq != 4 {
		t.Errorf("next event numbered %d", evs[0].Seq)
	}
	second.stop(t)
	info, err := os.Stat(filepath.Join(dir, "events.jsonl"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("events file: %v %v", info.Mode(), err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "events.jsonl")); strings.Contains(string(data), testKey) {
		t.Error("the key is in the events file")
	}
}

func TestRestartAfterACrashAndADamagedLine(t *testing.T) {
	dir := t.TempDir()
	first := startServer(t, receiver.Config{Dir: dir})
	for _, body := range []string{`{"n":1}`, `{"n":2}`} {
		if a := post(t, first.URL, "/transfers/watch", body); a.status != http.StatusNoContent {
			t.Fatal(a.raw)
		}
	}
	first.stop(t)
	file := filepath.Join(dir, "events.jsonl")
	f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	// A line damaged by hand, then the start of a line cut short.
	f.WriteString("not an event\n{\"seq\":9,\"type\":\"/transfers/wa")
	f.Close()

	second := startServer(t, receiver.Config{Dir: dir, RingSize: 1})
	// The ring holds the newest; the list goes on in the file, past the
	// damaged lines.
	evs := listEvents(t, second.URL, "")
	if len(evs) != 2 || evs[0].Seq != 2 || evs[1].Seq != 1 {
		t.Fatalf("events after the restart: %+v", evs)
	}
	if !strings.Contains(second.logs.String(), "line=3") {
		t.Errorf("the damaged line is not reported:\n%s", second.logs)
	}
	if a := post(t, second.URL, "/transfers/watch", `{"n":3}`); a.status != http.StatusNoContent {
		t.Fatal(a.raw)
	}
	second.stop(t)
	data, _ := os.ReadFile(file)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 4 || lines[2] != "not an event" || !strings.HasPrefix(lines[3], `{"seq":3,`) {
		t.Errorf("file after the restart:\n%s", data)
	}
}

func TestUnusableEventsDir(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	os.WriteFile(file, nil, 0o600)
	cfg := receiver.Config{Dir: file}
	cfg.Key = testConfigKey()
	if _, err := receiver.New(cfg); err == nil || !strings.Contains(err.Error(), "events directory") {
		t.Errorf("New with a file as directory: %v", err)
	}
}

// segments lists the rotated segments in dir.
func segments(t *testing.T, dir string) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "events-*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// Rotated segments load back like one file: the ring, the numbering and
// the duplicate guard carry on across a restart; segments older than the
// retention are removed.
func TestSegmentsAndRetention(t *testing.T) {
	dir := t.TempDir()
	// A segment whose events are all older than any retention.
	old := filepath.Join(dir, "events-20200101T000000.000000000Z.jsonl")
	if err := os.WriteFile(old, []byte(`{"seq":1,"type":"/transfers/watch","body":"{}"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A segment size of one byte rotates the file before every event but
	// the first.
	cfg := receiver.Config{Dir: dir, SegmentBytes: 1, Retention: 24 * time.Hour}
	first := startServer(t, cfg)
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("a segment older than the retention is still there: %v", err)
	}
	at := time.Now()
	for i := 1; i <= 5; i++ {
		if a := do(t, signedRequest(t, first.URL, "/transfers/watch", fmt.Sprintf("ref-%d", i), fmt.Sprintf(`{"n":%d}`, i), at)); a.status != http.StatusNoContent {
			t.Fatal(a.raw)
		}
	}
	first.stop(t)
	if n := len(segments(t, dir)); n != 4 {
		t.Errorf("%d segments, want 4", n)
	}

	second := startServer(t, receiver.Config{Dir: dir, SegmentBytes: 1 << 20})
	evs := listEvents(t, second.URL, "")
	if len(evs) != 5 || evs[0].Seq != 5 || evs[4].Seq != 1 || evs[4].Body != `{"n":1}` {
		t.Fatalf("ring after the restart: %+v", evs)
	}
	// The oldest event, in the oldest segment, is still a duplicate.
	if a := do(t, signedRequest(t, second.URL, "/transfers/watch", "ref-1", `{"n":1}`, time.Now())); a.status != http.StatusOK || !strings.Contains(a.raw, `"seq":1`) {
		t.Errorf("a copy of the first event: %d %s", a.status, a.raw)
	}
	if a := do(t, signedRequest(t, second.URL, "/transfers/watch", "ref-6", `{"n":6}`, time.Now())); a.status != http.StatusNoContent {
		t.Fatal(a.raw)
	}
	if evs := listEvents(t, second.URL, "?limit=1"); evs[0].Seq != 6 {
		t.Errorf("next event numbered %d", evs[0].Seq)
	}
}

// The file is rotated on the first event of a new day (UTC), so that
// retention removes whole days.
func TestDailyRotation(t *testing.T) {
	dir := t.TempDir()
	var clock atomic.Int64
	day := time.Date(2026, 3, 1, 23, 59, 0, 0, time.UTC)
	clock.Store(day.UnixNano())
	now := func() time.Time { return time.Unix(0, clock.Load()) }
	ts := startServer(t, receiver.Config{Dir: dir, Now: now})
	if a := do(t, signedRequest(t, ts.URL, "/transfers/watch", "ref-1", `{"n":1}`, now())); a.status != http.StatusNoContent {
		t.Fatal(a.raw)
	}
	if a := do(t, signedRequest(t, ts.URL, "/transfers/watch", "ref-2", `{"n":2}`, now())); a.status != http.StatusNoContent {
		t.Fatal(a.raw)
	}
	if n := len(segments(t, dir)); n != 0 {
		t.Errorf("%d segments within a day", n)
	}
	clock.Store(day.Add(2 * time.Minute).UnixNano())
	if a := do(t, signedRequest(t, ts.URL, "/transfers/watch", "ref-3", `{"n":3}`, now())); a.status != http.StatusNoContent {
		t.Fatal(a.raw)
	}
	segs := segments(t, dir)
	if len(segs) != 1 || !strings.Contains(segs[0], "events-20260301T2359") {
		t.Fatalf("segments %v", segs)
	}
	data, _ := os.ReadFile(segs[0])
	if strings.Count(string(data), "\n") != 2 {
		t.Errorf("yesterday's segment:\n%s", data)
	}
	if n := len(listEvents(t, ts.URL, "")); n != 3 {
		t.Errorf("%d events listed", n)
	}
}

// The duplicate guard is rebuilt from the events of the tolerance window
// only: an event accepted longer ago than that is forgotten, as it is by a
// receiver that never stopped.
func TestDuplicateGuardAfterARestartKeepsTheWindow(t *testing.T) {
	dir := t.TempDir()
	var clock atomic.Int64
	start := time.Now()
	clock.Store(start.UnixNano())
	now := func() time.Time { return time.Unix(0, clock.Load()) }
	first := startServer(t, receiver.Config{Dir: dir, Now: now})
	if a := do(t, signedRequest(t, first.URL, "/transfers/watch", "ref", `{"n":1}`, now())); a.status != http.StatusNoContent {
		t.Fatal(a.raw)
	}
	first.stop(t)

	clock.Store(start.Add(4 * time.Minute).UnixNano())
	second := startServer(t, receiver.Config{Dir: dir, Now: now})
	if a := do(t, signedRequest(t, second.URL, "/transfers/watch", "ref", `{"n":1}`, now())); a.status != http.StatusOK {
		t.Errorf("a copy within the window: %d %s", a.status, a.raw)
	}
	second.stop(t)

	// After the window from the event's own arrival, a restarted receiver
	// has forgotten it (copies extend the window in memory only).
	clock.Store(start.Add(8 * time.Minute).UnixNano())
	third := startServer(t, receiver.Config{Dir: dir, Now: now})
	if a := do(t, signedRequest(t, third.URL, "/transfers/watch", "ref", `{"n":1}`, now())); a.status != http.StatusNoContent {
		t.Errorf("a copy after the window: %d %s", a.status, a.raw)
	}
}
