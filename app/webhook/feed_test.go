package webhook_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/webhook"
)

func feedEvent(seq uint64, typ, body string) webhook.Event {
	return webhook.Event{Seq: seq, Type: typ, Body: body, Summary: webhook.Summarize(typ, []byte(body), time.Time{})}
}

func seqsOf(evs []webhook.Event) string {
	s := ""
	for _, ev := range evs {
		s += fmt.Sprintf("%d ", ev.Seq)
	}
	return s
}

func TestFeedMergesListAndStream(t *testing.T) {
	f := webhook.NewFeed(5)
	if f.Newest() != 0 || f.Len() != 0 {
		t.Fatal("a new feed is not empty")
	}
	// The page lists events (newest first), while the stream, opened a
	// moment earlier, repeats some of them.
	list := []webhook.Event{feedEvent(4, "/transfers/watch", `{}`), feedEvent(3, "/send/watch", `{}`), feedEvent(2, "/transfers/watch", `{}`)}
	if n := f.Merge(list...); n != 3 {
		t.Errorf("merged %d", n)
	}
	if n := f.Merge(feedEvent(4, "/transfers/watch", `{}`), feedEvent(5, "/bulk_process_end/watch", `{"bulkId":"7","status":"RUNNING"}`)); n != 1 {
		t.Errorf("merged %d from the stream, want 1", n)
	}
	if got := seqsOf(f.Events(0)); got != "5 4 3 2 " || f.Newest() != 5 {
		t.Errorf("events %s, newest %d", got, f.Newest())
	}
	// An event that arrives late takes its place.
	f.Merge(feedEvent(1, "/send/watch", `{}`))
	if got := seqsOf(f.Events(0)); got != "5 4 3 2 1 " {
		t.Errorf("events %s", got)
	}
	// A full feed lets the oldest go, and ignores what is older still.
	f.Merge(feedEvent(6, "/bulk_process_end/watch", `{"bulkId":"7","status":"COMPLETED"}`))
	if n := f.Merge(feedEvent(1, "/send/watch", `{}`)); n != 0 {
		t.Error("took back an event older than a full feed keeps")
	}
	if got := seqsOf(f.Events(0)); got != "6 5 4 3 2 " || f.Len() != 5 {
		t.Errorf("events %s", got)
	}
	if got := seqsOf(f.Events(1, "transfers/watch")); got != "4 " {
		t.Errorf("newest transfer %s", got)
	}
	if got := seqsOf(f.Events(0, "/send/watch", "/webhooks/bulk_process_end/watch")); got != "6 5 3 " {
		t.Errorf("sends and bulk ends %s", got)
	}
	if c := f.Counts(); c["/transfers/watch"] != 2 || c["/bulk_process_end/watch"] != 2 || c["/send/watch"] != 1 {
		t.Errorf("counts %v", c)
	}
	if ev, ok := f.BulkEnd("7"); !ok || ev.Seq != 6 || ev.Summary.Status != "COMPLETED" {
		t.Errorf("bulk end %+v %v", ev, ok)
	}
	if _, ok := f.BulkEnd("8"); ok {
		t.Error("found the end of a bulk that has none")
	}
}

func BenchmarkFeedStream10k(b *testing.B) {
	evs := make([]webhook.Event, 20_000)
	for i := range evs {
		evs[i] = feedEvent(uint64(i+1), "/transfers/watch", `{}`)
	}
	for b.Loop() {
		f := webhook.NewFeed(10_000)
		for _, ev := range evs {
			f.Merge(ev)
		}
	}
}
