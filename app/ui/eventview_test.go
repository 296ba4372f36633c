package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/ui/eventfeed"
	"github.com/bulkdesk/bulkdesk/app/webhook"
)

func TestEventLinks(t *testing.T) {
	if got := bulkHref("118231498219765760", false); got != "/bulk?id=118231498219765760" {
		t.Errorf("bulk link %s", got)
	}
	if got := bulkHref("a/b c&d", false); got != "/bulk?id=a%2Fb+c%26d" {
		t.Errorf("bulk link of an odd id %s", got)
	}
	if got := verifyHref(42); got != "/webhooks?event=42" {
		t.Errorf("verifier link %s", got)
	}
	if got := eventTime(time.Date(2025, 3, 1, 9, 5, 7, 0, time.FixedZone("CET", 3600))); got != "2025-03-01 08:05:07 UTC" {
		t.Errorf("time %s", got)
	}
	if eventTime(time.Time{}) != "—" {
		t.Error("a zero time is shown")
	}
}

func TestEventHeaderLinesReadBackAsTheSameHeaders(t *testing.T) {
	ev := webhook.Event{Headers: map[string]string{
		"signature-v2": "v2==", "published-timestamp": "1718011800000", "call-ref": "ref-1", "request-ref": "rq", "signature": "v1==",
	}}
	text := eventHeaderLines(ev)
	if text != "call-ref: ref-1\npublished-timestamp: 1718011800000\nsignature-v2: v2==\nsignature: v1==\nrequest-ref: rq\n" {
		t.Errorf("lines:\n%s", text)
	}
	h, err := webhook.ParseHeaders([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range ev.Headers {
		if h.Get(name) != v {
			t.Errorf("%s reads back as %q", name, h.Get(name))
		}
	}
}

func TestTypeOptions(t *testing.T) {
	counts := map[string]int{"/bulk_process_end/watch": 1200, "/transfers/watch": 3, "/unlisted/watch": 1}
	got := typeOptions(counts, "/send/watch")
	var labels []string
	for _, o := range got {
		labels = append(labels, o.path+"="+o.label)
	}
	want := "/transfers/watch=Transfer (3) | /send/watch=Send (0) | /bulk_process_end/watch=Bulk process ended (1,200) | /unlisted/watch=/unlisted/watch (1)"
	if strings.Join(labels, " | ") != want {
		t.Errorf("options\n got %s\nwant %s", strings.Join(labels, " | "), want)
	}
}

func TestFeedNotice(t *testing.T) {
	retry := time.Date(2025, 3, 1, 9, 0, 30, 0, time.UTC)
	for _, tc := range []struct {
		st         eventfeed.Status
		state, has string
	}{
		{eventfeed.Status{State: eventfeed.StateConnecting, Online: true}, "connecting", "Connecting"},
		{eventfeed.Status{State: eventfeed.StateLive, Online: true}, "live", "http://h/webhooks/bulk_process_end/watch."},
		{eventfeed.Status{State: eventfeed.StateLive, Online: false}, "offline", "The console is offline"},
		{eventfeed.Status{State: eventfeed.StateReconnecting, Online: true, Newest: 57}, "reconnecting", "resuming after event #57."},
		{eventfeed.Status{State: eventfeed.StateReconnecting, Online: true, RetryAt: retry}, "reconnecting", "next attempt at 09:00:30 UTC"},
		{eventfeed.Status{State: eventfeed.StateNoReceiver, Online: false}, "no-receiver", "-webhook-key"},
		{eventfeed.Status{State: eventfeed.StateOffline, Online: true, RetryAt: retry}, "offline", "trying again at 09:00:30 UTC"},
	} {
		state, text := feedNotice(tc.st, "http://h/webhooks", false)
		if state != tc.state || !strings.Contains(text, tc.has) {
			t.Errorf("%+v: %s %q, want %s and %q", tc.st, state, text, tc.state, tc.has)
		}
	}
	// With servers sharing a database, the live events are theirs too.
	if _, text := feedNotice(eventfeed.Status{State: eventfeed.StateLive, Online: true}, "http://h/webhooks", true); !strings.Contains(text, "another server sharing its database") {
		t.Errorf("shared events: %q", text)
	}
}

func TestGapText(t *testing.T) {
	if got := gapText(eventfeed.Gap{After: 4, Oldest: 9}); !strings.HasPrefix(got, "Events #5 to #8 (4) left") {
		t.Errorf("gap %q", got)
	}
	if got := gapText(eventfeed.Gap{After: 4, Oldest: 6}); !strings.HasPrefix(got, "Event #5 left") {
		t.Errorf("one event %q", got)
	}
}
