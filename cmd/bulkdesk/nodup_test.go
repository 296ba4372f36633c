package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
)

// TestNoDuplicatesUnderFaults submits a 3-chunk request 100 times, two
// processes at a time, while the sandbox fails requests at random, drops
// connections after acting on them and answers 429, and while a third of
// the processes are killed at a random moment and started again later on
// the journal they left. Some runs start from an empty journal, as on
// another machine, so that the API's ref dedupe is tested too. The
// sandbox must end with exactly one bulk per chunk and each element
// submitted exactly once.
func TestNoDuplicatesUnderFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 100 processes")
	}
	sb, err := sandbox.New(sandbox.Config{APIKey: sandbox.DefaultAPIKey, Token: sandbox.DefaultToken, RateLimitReset: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	srv := httptest.NewServer(sb)
	defer srv.Close()
	if err := sb.Faults().SetRandom(sandbox.Random{Fail: 0.15, RateLimit: 0.1, Drop: 0.15}, 42); err != nil {
		t.Fatal(err)
	}

	const elements, chunk = 300, 100
	dir := t.TempDir()
	file := filepath.Join(dir, "pay.json")
	if err := os.WriteFile(file, fixture.SampleBody(elements), 0o600); err != nil {
		t.Fatal(err)
	}
	journals := []string{filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json"), filepath.Join(dir, "c.json")}
	rng := rand.New(rand.NewPCG(7, 7))

	var mu sync.Mutex
	killed, finished := 0, 0
	submitOnce := func(i int, journal string, killAfter time.Duration) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		// -allow-repeats: the runs submit the same file on purpose, from
		// three journals, to test the idempotency-refs; the repeat check
		// would stop every run after the first bulk.
		cmd := exec.CommandContext(ctx, os.Args[0], "submit", "-kind", "transfers", "-api-url", srv.URL+"/multi",
			"-part-size", fmt.Sprint(chunk), "-journal", journal, "-format", "json", "-allow-repeats", file)
		cmd.Env = append(os.Environ(), envChild+"=1", envAPIKey+"="+sandbox.DefaultAPIKey, envToken+"="+sandbox.DefaultToken)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Error(err)
			return
		}
		if killAfter > 0 {
			timer := time.AfterFunc(killAfter, func() { cmd.Process.Kill() })
			defer timer.Stop()
		}
		err := cmd.Wait()
		mu.Lock()
		defer mu.Unlock()
		if killAfter > 0 && err != nil && cmd.ProcessState != nil && !cmd.ProcessState.Exited() {
			killed++
			return
		}
		if err != nil {
			t.Errorf("run %d (%s) failed: %v\n%s", i, filepath.Base(journal), err, out.String())
			return
		}
		finished++
	}

	for batch := range 50 {
		var wg sync.WaitGroup
		for k := range 2 {
			i := 2*batch + k
			journal := journals[i%len(journals)]
			if rng.IntN(3) == 0 {
				journal = filepath.Join(dir, fmt.Sprintf("fresh-%d.json", i)) // another machine
			}
			var killAfter time.Duration
			if rng.IntN(3) == 0 {
				killAfter = time.Duration(10+rng.IntN(110)) * time.Millisecond
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				submitOnce(i, journal, killAfter)
			}()
		}
		wg.Wait()
	}
	if t.Failed() {
		return
	}
	injected := sb.Faults().Injected()
	t.Logf("%d runs finished, %d killed; faults injected: %v", finished, killed, injected)
	if killed == 0 || injected[sandbox.Drop] == 0 || injected[sandbox.Fail] == 0 || injected[sandbox.RateLimit] == 0 {
		t.Fatalf("the run did not exercise every fault and kills: %d killed, %v", killed, injected)
	}

	sb.Faults().Clear()
	// Every journal, finished without faults, names the same three bulks.
	var want []string
	for _, j := range journals {
		var out bytes.Buffer
		cmd := exec.Command(os.Args[0], "submit", "-kind", "transfers", "-api-url", srv.URL+"/multi", "-part-size", fmt.Sprint(chunk), "-journal", j, file)
		cmd.Env = append(os.Environ(), envChild+"=1", envAPIKey+"="+sandbox.DefaultAPIKey, envToken+"="+sandbox.DefaultToken)
		cmd.Stdout = &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("final run on %s: %v", j, err)
		}
		if want == nil {
			want = []string{out.String()}
		} else if out.String() != want[0] {
			t.Errorf("journal %s names other bulks:\n%s\nwant\n%s", filepath.Base(j), out.String(), want[0])
		}
	}

	c, err := bulkapi.New(bulkapi.Config{BaseURL: srv.URL + "/multi", APIKey: sandbox.DefaultAPIKey, Token: sandbox.DefaultToken})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	bulks, err := c.ListAll(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(bulks) != elements/chunk {
		t.Fatalf("the sandbox holds %d bulks, want %d", len(bulks), elements/chunk)
	}
	seen := make(map[string]int)
	for _, b := range bulks {
		ops, err := c.AllOperations(ctx, b.BulkID, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(ops) != chunk {
			t.Errorf("bulk %s holds %d operations", b.BulkID, len(ops))
		}
		for _, op := range ops {
			seen[op.RequestPayload]++
		}
	}
	if len(seen) != elements {
		t.Errorf("%d distinct elements submitted, want %d", len(seen), elements)
	}
	for payload, n := range seen {
		if n != 1 {
			t.Errorf("element submitted %d times: %s", n, payload)
		}
	}
}
