//go:build !js

package main

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/webhook"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/chromedp"
)

// BenchmarkEventsPageBurst posts a burst of transfer events to the
// receiver, from 8 senders, while the events page is open, as the API
// does when a bulk of transfers runs. It reports how long after the last
// event was accepted the page shows it on top, how long the burst took
// from the first post to the page showing its last event, and the
// longest task on the page's main thread meanwhile (Long Tasks API).
// "make bench" runs it once (-benchtime 1x); each figure is the median of
// the trials made inside.
func BenchmarkEventsPageBurst(b *testing.B) {
	const trials, senders = 3, 8
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			var lag, whole, longest []float64
			for range b.N {
				for range trials {
					srv := startServe(b, "-webhook-key", browserKey)
					br := browsertest.New(b)
					br.Do(30*time.Second, browsertest.Instrument(), chromedp.Navigate(srv.URL+"feed"))
					br.WaitFor(30*time.Second, "the live stream", browsertest.FeedLive)
					browsertest.Eval[bool](br, 5*time.Second, `(performance.mark("burst:start"), true)`)

					start := time.Now()
					last := postBurst(b, srv.URL, n, senders)
					br.WaitFor(2*time.Minute, "the burst's last event on top", fmt.Sprintf(`document.querySelector("#events li.event")?.dataset.seq === "%d"`, n))
					shown := time.Now()
					lag = append(lag, float64(shown.Sub(last).Milliseconds()))
					whole = append(whole, float64(shown.Sub(start).Milliseconds()))
					longest = append(longest, browsertest.Eval[float64](br, 5*time.Second, browsertest.LongestTaskSince("burst:start")))
					srv.Stop(b)
				}
			}
			b.ReportMetric(browsertest.Median(lag), "ms-last-accepted-to-shown")
			b.ReportMetric(browsertest.Median(whole), "ms-first-post-to-last-shown")
			b.ReportMetric(browsertest.Median(longest), "ms-longest-task")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// postBurst posts n signed transfer events from several senders and
// returns when the last one was accepted.
func postBurst(tb testing.TB, base string, n, senders int) time.Time {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s := &webhook.Sender{Key: webhook.NewKey(browserKey)}
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, senders)
	for range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1); i <= int64(n); i = next.Add(1) {
				body := fmt.Sprintf(`{"eventType":"COMPLETED","transfer":{"id":{"type":"transfers","id":"%d"},"state":"COMPLETED","destinationAmount":{"currency":"EUR","amount":%d}}}`, i, 100+i)
				if err := s.Send(ctx, base+"webhooks", webhook.Delivery{Type: "/transfers/watch", Body: []byte(body), CallRef: fmt.Sprintf("burst-%d", i)}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		tb.Fatal(err)
	}
	return time.Now()
}
