package ui

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/ui/eventfeed"
	"github.com/bulkdesk/bulkdesk/app/webhook"
)

// eventTime writes a time as the events page shows it: in UTC, to the
// second, so that operators in several time zones quote the same time.
func eventTime(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return dateTime(t.UTC()) + " UTC"
}

// verifyHref returns the URL of the verifier page, loaded with the
// headers and body of an event the console holds.
func verifyHref(seq uint64) string {
	return href("/webhooks") + "?event=" + strconv.FormatUint(seq, 10)
}

// keptHeaders are the headers of an event, in the order a person reads
// them: what is signed, then the signatures, then the correlation id.
var keptHeaders = []string{
	webhook.HeaderCallRef, webhook.HeaderPublishedTimestamp,
	webhook.HeaderSignatureV2, webhook.HeaderSignature, webhook.HeaderRequestRef,
}

// eventHeaderLines writes an event's kept headers as "name: value" lines,
// the form the verifier page takes.
func eventHeaderLines(ev webhook.Event) string {
	var b strings.Builder
	for _, name := range keptHeaders {
		if v, ok := ev.Headers[name]; ok {
			fmt.Fprintf(&b, "%s: %s\n", name, v)
		}
	}
	return b.String()
}

// typeOption is one choice of the events page's type filter.
type typeOption struct {
	path, label string
}

// typeOptions returns the filter's choices after "every type": the types
// of the events held, with their counts, in the reference's order, and
// the chosen type even when none of its events is held.
func typeOptions(counts map[string]int, chosen string) []typeOption {
	var out []typeOption
	known := map[string]bool{}
	for _, ty := range webhook.Types() {
		known[ty.Path] = true
		if n := counts[ty.Path]; n > 0 || ty.Path == chosen {
			out = append(out, typeOption{ty.Path, fmt.Sprintf("%s (%s)", t(ty.Title), count(n))})
		}
	}
	// Types the reference does not list cannot reach the receiver, but a
	// page must not hide what it holds.
	var other []string
	for path, n := range counts {
		if !known[path] && n > 0 {
			other = append(other, path)
		}
	}
	sort.Strings(other)
	for _, path := range other {
		out = append(out, typeOption{path, fmt.Sprintf("%s (%s)", path, count(counts[path]))})
	}
	return out
}

// feedNotice says where the connection to the receiver stands, in an
// operator's words: a state for styling and tests, and a sentence. shared
// says the events are those of every server on the server's database.
func feedNotice(st eventfeed.Status, webhookURL string, shared bool) (state, text string) {
	if !st.Online && st.State != eventfeed.StateNoReceiver {
		return "offline", t("The console is offline: its server does not answer. Events it receives meanwhile will appear here when it is back.")
	}
	if st.State == eventfeed.StateLive && shared {
		return "live", tf("Live: events appear here as this server, or another server sharing its database, accepts them. The API posts them to %s/<event path>, such as %s/bulk_process_end/watch.", webhookURL, webhookURL)
	}
	switch st.State {
	case eventfeed.StateLive:
		return "live", tf("Live: events appear here as this server's receiver accepts them. The API posts them to %s/<event path>, such as %s/bulk_process_end/watch.", webhookURL, webhookURL)
	case eventfeed.StateReconnecting:
		text = t("The stream of events dropped; reconnecting")
		if st.Newest > 0 {
			text += tf(" and resuming after event #%d", st.Newest)
		}
		if !st.RetryAt.IsZero() {
			text += tf(", next attempt at %s", st.RetryAt.UTC().Format("15:04:05 UTC"))
		}
		return "reconnecting", text + "."
	case eventfeed.StateNoReceiver:
		return "no-receiver", tf("This server receives no webhook events. Start it with -webhook-key (or the BULKDESK_WEBHOOK_KEY environment variable) to receive the API's signed events at %s/<event path>, or with -sandbox, whose bulks send their end-of-bulk events here.", webhookURL)
	case eventfeed.StateOffline:
		text = t("The server does not answer; trying again")
		if !st.RetryAt.IsZero() {
			text = tf("The server does not answer; trying again at %s", st.RetryAt.UTC().Format("15:04:05 UTC"))
		}
		return "offline", text + "."
	default:
		return "connecting", t("Connecting to this server's webhook receiver…")
	}
}

// gapText says which events a gap lost.
func gapText(g eventfeed.Gap) string {
	first, last := g.After+1, g.Oldest-1
	if first == last {
		return tf("Event #%d left the receiver's memory before this console could fetch it: it is not shown here.", first)
	}
	return tf("Events #%d to #%d (%s) left the receiver's memory before this console could fetch them: they are not shown here.", first, last, count(int(g.Missing())))
}
