package receiver_test

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

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
