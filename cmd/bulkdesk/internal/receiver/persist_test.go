package receiver_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
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
	evs := listEvents(t, second.URL, "")
	if len(evs) != 1 || evs[0].Seq != 2 {
		t.Fatalf("ring after the restart: %+v", evs)
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
