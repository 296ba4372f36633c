package receiver_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/webhook"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/receiver"
)

// BenchmarkAccept measures an accepted event end to end over loopback:
// the POST, verification, numbering, the ring and, with a directory, the
// append to the events file. "parallel" posts from as many senders as
// GOMAXPROCS allows (times 4).
func BenchmarkAccept(b *testing.B) {
	const body = `{"eventType":"COMPLETED","transfer":{"id":{"type":"transfers","id":"118231498219765760"},"state":"COMPLETED","destinationAmount":{"currency":"EUR","amount":"125000"}}}`
	for _, stored := range []bool{false, true} {
		name := "memory"
		if stored {
			name = "file"
		}
		// Each run gets a new directory: a receiver reloading the events
		// of earlier runs would time the reload too.
		config := func(b *testing.B) receiver.Config {
			cfg := receiver.Config{RingSize: 10_000}
			if stored {
				cfg.Dir = b.TempDir()
			}
			return cfg
		}
		b.Run(name+"/serial", func(b *testing.B) {
			ts := startServer(b, config(b))
			var n atomic.Int64
			for b.Loop() {
				postB(b, ts.URL, fmt.Sprintf("ref-%d", n.Add(1)), body)
			}
		})
		b.Run(name+"/parallel", func(b *testing.B) {
			ts := startServer(b, config(b))
			var n atomic.Int64
			b.SetParallelism(4)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					postB(b, ts.URL, fmt.Sprintf("ref-%d", n.Add(1)), body)
				}
			})
		})
	}
}

// postB posts one signed event; it reports a failure with Error, which,
// unlike Fatal, may be called from RunParallel's goroutines.
func postB(b *testing.B, url, ref, body string) {
	req := signedRequest(b, url, "/transfers/watch", ref, body, time.Now())
	resp, err := client.Do(req)
	if err != nil {
		b.Error(err)
		return
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		b.Errorf("status %d", resp.StatusCode)
	}
}

// BenchmarkDurableAccept measures events accepted per second when each is
// on disk before its 204: real HTTP over 127.0.0.1 to a receiver with an
// events directory in a temporary directory, from 1 sender or 8
// concurrent ones, with group commit or an fsync per event. fsyncs/event
// shows how many events an fsync covered.
func BenchmarkDurableAccept(b *testing.B) {
	const body = `{"eventType":"COMPLETED","transfer":{"id":{"type":"transfers","id":"118231498219765760"},"state":"COMPLETED","destinationAmount":{"currency":"EUR","amount":"125000"}}}`
	for _, mode := range []string{"group", "per-event"} {
		for _, senders := range []int{1, 8} {
			b.Run(fmt.Sprintf("%s/senders=%d", mode, senders), func(b *testing.B) {
				var syncs atomic.Int64
				cfg := receiver.Config{RingSize: 10_000, Dir: b.TempDir(), PerEventFsync: mode == "per-event"}
				receiver.SetSyncHook(&cfg, func(int) error { syncs.Add(1); return nil })
				ts := startServer(b, cfg)
				var next atomic.Int64
				var wg sync.WaitGroup
				b.ResetTimer()
				start := time.Now()
				for range senders {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for i := next.Add(1); i <= int64(b.N); i = next.Add(1) {
							postB(b, ts.URL, fmt.Sprintf("ref-%d", i), body)
						}
					}()
				}
				wg.Wait()
				elapsed := time.Since(start)
				b.StopTimer()
				b.ReportMetric(float64(b.N)/elapsed.Seconds(), "events/s")
				b.ReportMetric(float64(syncs.Load())/float64(b.N), "fsyncs/event")
			})
		}
	}
}

// BenchmarkListMemory measures the heap of 4 parallel GET /events?limit=300
// over a ring of 300 events of 1 MiB each: peak-MB is the highest heap
// sampled (every millisecond) above the heap that holds the ring, which
// is ring-MB.
func BenchmarkListMemory(b *testing.B) {
	const events, parallel = 300, 4
	ts := startServer(b, receiver.Config{RingSize: events, MaxBodyBytes: 2 << 20})
	pad := strings.Repeat("x", 1<<20-len(`{"pad":""}`))
	for i := range events {
		postB(b, ts.URL, fmt.Sprintf("ref-%d", i), `{"pad":"`+pad+`"}`)
	}
	pad = ""
	heap := func() uint64 {
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	runtime.GC()
	base := heap()
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if h := heap(); h > peak.Load() {
					peak.Store(h)
				}
			}
		}
	}()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		var wg sync.WaitGroup
		for range parallel {
			wg.Add(1)
			go func() {
				defer wg.Done()
				resp, err := client.Get(ts.URL + "/events?limit=300")
				if err != nil {
					b.Error(err)
					return
				}
				defer resp.Body.Close()
				if n, _ := io.Copy(io.Discard, resp.Body); n < events<<20 {
					b.Errorf("read %d bytes", n)
				}
			}()
		}
		wg.Wait()
	}
	b.StopTimer()
	close(stop)
	<-sampled
	b.ReportMetric(float64(base)/(1<<20), "ring-MB")
	b.ReportMetric(float64(peak.Load()-min(base, peak.Load()))/(1<<20), "peak-MB")
}

// BenchmarkListPastTheRing measures a page of 100 events read from the
// events files past a ring of 100: the folder holds 60,000 transfer
// events (a full 64 MiB segment and more), written as the receiver writes
// them, and the page starts in the middle of the oldest file.
func BenchmarkListPastTheRing(b *testing.B) {
	const events = 60_000
	dir := b.TempDir()
	path := filepath.Join(dir, "events.jsonl")
	writeEvents(b, path, 1, events)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	ts := startServer(b, receiver.Config{Dir: dir, RingSize: 100})
	for b.Loop() {
		resp, err := client.Get(ts.URL + "/events?limit=100&before=30000")
		if err != nil {
			b.Fatal(err)
		}
		var evs []webhook.Event
		err = json.NewDecoder(resp.Body).Decode(&evs)
		resp.Body.Close()
		if err != nil || len(evs) != 100 || evs[0].Seq != 29_999 {
			b.Fatalf("%d events, %v", len(evs), err)
		}
	}
	b.ReportMetric(float64(st.Size())/1e6, "file-MB")
}

// writeEvents writes events numbered first to last to path as stored
// lines of signed transfer events.
func writeEvents(b *testing.B, path string, first, last int) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	at := time.Now().Add(-time.Hour)
	v := &webhook.Verifier{Key: testConfigKey(), Now: func() time.Time { return at }}
	for seq := first; seq <= last; seq++ {
		body := fmt.Sprintf(`{"eventType":"COMPLETED","transfer":{"id":{"type":"transfers","id":"%d"},"state":"COMPLETED","destinationAmount":{"currency":"EUR","amount":"125000"}}}`, 118231498219765760+seq)
		h := webhook.Sign(testConfigKey(), fmt.Sprint("ref-", seq), []byte(body), at)
		ev := webhook.NewEvent("/transfers/watch", h, []byte(body), v.Verify(h, []byte(body)), at)
		ev.Seq = uint64(seq)
		line, err := json.Marshal(ev)
		if err != nil {
			b.Fatal(err)
		}
		w.Write(append(line, '\n'))
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
}
