package ui

import (
	"strconv"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/ui/eventfeed"
	"github.com/bulkdesk/bulkdesk/app/webhook"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// eventsPageSize is how many events the page shows at first, and how many
// more "Show more" adds: a window, since a list of thousands takes
// seconds to render.
const eventsPageSize = 50

// drawEvery is how often, at most, the page draws the list again while
// events arrive. go-app updates every row of the window when an event
// arrives on top, which costs the page tens of milliseconds a time; and
// nobody reads a list that changes faster.
const drawEvery = time.Second

// drawGrowth is how many rows a live draw adds to the list at most, and
// growEvery how soon the next draw adds more. go-app mounting a row costs
// many times what updating one does: a list going from none to fifty rows
// in one draw held the main thread for most of a second.
const (
	drawGrowth = 5
	growEvery  = 50 * time.Millisecond
)

// eventsPage lists the webhook events the server's receiver accepted,
// newest first, live: those it held when the page opened and those it
// accepts while the page is open. An operator filters them by type, reads
// their key fields, opens a payload, follows an ended bulk to the bulk
// page, and takes an event to the verifier.
type eventsPage struct {
	app.Compo

	status     eventfeed.Status
	events     []webhook.Event // shown: the newest of the filter's type
	matching   int             // events held of the filter's type
	counts     map[string]int
	filter     string // an event path, or "" for every type
	shown      int
	open       map[uint64]bool // events whose payload is shown
	dismissed  time.Time       // gaps learned of before it are hidden
	webhookURL string
	// shared says the events are those of every server on the server's
	// database (APIConfig.SharedEvents).
	shared bool

	announcement string
	stop         func()
	// drawn is when the list was last drawn; drawing says a later draw
	// is scheduled; arrived counts the events that came since the last.
	drawn   time.Time
	drawing bool
	arrived int
}

func newEventsPage() *eventsPage {
	return &eventsPage{shown: eventsPageSize, open: map[uint64]bool{}, status: eventfeed.Status{Online: true}}
}

func (p *eventsPage) OnNav(ctx app.Context) {
	t := ctx.Page().URL().Query().Get("type")
	if typ, ok := webhook.LookupType(t); ok {
		p.filter = typ.Path
	} else {
		p.filter = ""
	}
	if app.IsClient {
		u := app.Window().URL()
		u.Path, u.RawQuery, u.Fragment = href("/webhooks"), "", ""
		p.webhookURL = u.String()
	}
	p.refresh()
}

func (p *eventsPage) OnMount(ctx app.Context) {
	p.shared = loadConfig().API.SharedEvents
	p.stop = subscribeEvents(ctx, p.update)
	if svc := consoleEvents(); svc != nil && p.filter != "" {
		svc.Backfill(p.filter)
	}
	p.refresh()
}

func (p *eventsPage) OnDismount() {
	if p.stop != nil {
		p.stop()
	}
}

// update takes what the feed brought, and draws it at most once every
// drawEvery.
func (p *eventsPage) update(ctx app.Context, u eventfeed.Update) {
	p.arrived += len(u.Added)
	if u.Reset {
		p.open = map[uint64]bool{}
		p.dismissed = time.Time{}
		p.arrived = 0
		p.announcement = t("The receiver restarted; the list shows the events it holds now.")
	}
	wait := drawEvery - time.Since(p.drawn)
	if u.Reset || wait <= 0 {
		p.draw(ctx)
		return
	}
	p.drawLater(ctx, wait)
	ctx.PreventUpdate()
}

// drawLater draws the list after d, unless a draw is already scheduled.
func (p *eventsPage) drawLater(ctx app.Context, d time.Duration) {
	if p.drawing {
		return
	}
	p.drawing = true
	ctx.After(d, func(ctx app.Context) {
		p.drawing = false
		p.draw(ctx)
	})
}

// draw reads the feed again for the next render. It adds drawGrowth rows
// to the list at most, and the next ones growEvery later.
func (p *eventsPage) draw(ctx app.Context) {
	if p.arrived > 0 {
		p.announcement = plural(p.arrived, "new event", "new events") + "."
		p.arrived = 0
	}
	rows := len(p.events)
	p.refresh()
	if len(p.events) > rows+drawGrowth {
		p.events = p.events[:rows+drawGrowth]
		p.drawLater(ctx, growEvery)
	}
	p.drawn = time.Now()
}

// refresh reads the feed again.
func (p *eventsPage) refresh() {
	svc := consoleEvents()
	if svc == nil {
		return
	}
	p.status = svc.Status()
	p.counts = svc.Counts()
	var types []string
	if p.filter != "" {
		types = []string{p.filter}
		p.matching = p.counts[p.filter]
	} else {
		p.matching = svc.Len()
	}
	p.events = svc.Events(p.shown, types...)
}

func (p *eventsPage) Render() app.UI {
	state, text := feedNotice(p.status, p.webhookURL, p.shared)
	lead := t("The webhook events this server's receiver accepted, newest first: each one's signature was checked on arrival. Follow an ended bulk to the bulk page, open a payload, or check a signature again in the verifier.")
	if p.shared {
		lead = t("The webhook events accepted by this server and the servers sharing its database, newest first: each one's signature was checked on arrival. Follow an ended bulk to the bulk page, open a payload, or check a signature again in the verifier.")
	}
	return newShell().Route("/feed").Announcement(p.announcement).Content(
		app.P().Class("lead").Text(lead),
		app.P().ID("feed-status").Class("feed-status", "feed-"+state).DataSet("state", state).Role("status").Body(
			app.Text(text),
			app.If(state == "offline" || state == "reconnecting" || state == "no-receiver", func() app.UI {
				return app.Button().ID("feed-retry").Type("button").Class("button", "button-quiet", "feed-retry").Text(t("Try now")).OnClick(p.retry)
			}),
		),
		p.renderNotices(),
		app.If(state != "no-receiver" || len(p.counts) > 0, p.renderFeed),
	)
}

// renderNotices warns of events the console missed and of a receiver that
// started over.
func (p *eventsPage) renderNotices() app.UI {
	var gaps []eventfeed.Gap
	for _, g := range p.status.Gaps {
		if g.At.After(p.dismissed) {
			gaps = append(gaps, g)
		}
	}
	restarted := p.status.Restarted
	if len(gaps) == 0 && restarted.IsZero() {
		return app.Div().ID("feed-notices")
	}
	return app.Div().ID("feed-notices").Class("feed-notices", "alert-warning").Role("alert").Body(
		app.If(!restarted.IsZero(), func() app.UI {
			return app.P().ID("feed-restarted").Text(tf("At %s the receiver was found numbering events anew: it restarted without stored events, so the events listed before are gone from it, and the list shows the ones it holds now.", restarted.UTC().Format("15:04:05 UTC")))
		}),
		app.Range(gaps).Slice(func(i int) app.UI {
			return app.P().Class("feed-gap").Text(gapText(gaps[i]))
		}),
		app.If(len(gaps) > 0, func() app.UI {
			return app.Button().Type("button").Class("button", "button-quiet").Text(t("Dismiss")).OnClick(p.dismissGaps)
		}),
	)
}

func (p *eventsPage) renderFeed() app.UI {
	options := typeOptions(p.counts, p.filter)
	total := 0
	for _, n := range p.counts {
		total += n
	}
	return app.Div().Body(
		app.Div().Class("field", "feed-filter").Body(
			app.Label().For("event-type").Text(t("Event type")),
			app.Select().ID("event-type").Class("select").OnChange(p.filterChosen).Body(
				option("", tf("Every type (%s)", count(total)), p.filter == ""),
				app.Range(options).Slice(func(i int) app.UI {
					o := options[i]
					return option(o.path, o.label, o.path == p.filter)
				}),
			),
		),
		app.If(len(p.events) == 0, func() app.UI {
			text := t("No events yet. They appear here as the receiver accepts them: execute a bulk, and its end-of-bulk event arrives when it finishes.")
			if p.filter != "" {
				text = t("No events of this type yet.")
			}
			return app.P().ID("events-empty").Class("note").Text(text)
		}).Else(func() app.UI {
			return app.Ol().ID("events").Class("events").Body(
				app.Range(p.events).Slice(func(i int) app.UI { return p.renderEvent(p.events[i]) }),
			)
		}),
		app.If(len(p.events) < p.matching, func() app.UI {
			return app.Button().ID("more-events").Type("button").Class("button").
				Text(tf("Show %s more", count(min(eventsPageSize, p.matching-len(p.events))))).
				OnClick(p.showMore)
		}),
	)
}

func (p *eventsPage) renderEvent(ev webhook.Event) app.UI {
	seq := strconv.FormatUint(ev.Seq, 10)
	open := p.open[ev.Seq]
	payloadID := "payload-" + seq
	toggle := t("Show payload")
	if open {
		toggle = t("Hide payload")
	}
	s := ev.Summary
	return app.Li().Class("event").DataSet("seq", seq).DataSet("type", ev.Type).Body(
		app.Div().Class("event-head").Body(
			app.Span().Class("event-title").Text(t(s.Title)),
			app.If(s.Status != "", func() app.UI {
				return app.Span().Class("event-status").DataSet("status", s.Status).Text(statusWord(s.Status))
			}),
			app.Time().Class("event-time").DateTime(ev.PublishedAt.UTC().Format(time.RFC3339)).Title(tf("Received %s", eventTime(ev.ReceivedAt))).Text(eventTime(ev.PublishedAt)),
			app.Span().Class("event-seq").Text("#"+seq),
		),
		app.If(len(s.Fields) > 0, func() app.UI {
			return app.Dl().Class("event-fields").Body(
				app.Range(s.Fields).Slice(func(i int) app.UI { return renderField(s, s.Fields[i]) }),
			)
		}),
		app.If(s.Problem != "", func() app.UI {
			return app.P().Class("event-problem").Text(s.Problem)
		}),
		app.Div().Class("event-actions").Body(
			app.Button().Type("button").Class("button", "button-quiet", "payload-toggle").
				Aria("expanded", open).Aria("controls", payloadID).
				Text(toggle).OnClick(func(ctx app.Context, e app.Event) { p.toggle(ev.Seq) }),
			app.A().Class("verify-link").Href(verifyHref(ev.Seq)).Text(t("Check its signature")),
		),
		app.If(open, func() app.UI {
			return app.Div().ID(payloadID).Class("event-payload").Body(
				app.P().Class("event-signatures").Text(tf("signature-v2 matched on arrival; the deprecated signature header was %s.", verdictWord(ev.DeprecatedSignature))),
				app.Pre().Class("event-headers").Text(eventHeaderLines(ev)),
				app.Pre().Class("event-body").Text(ev.Body),
			)
		}),
	)
}

// renderField shows one key field; a bulk's id links to its bulk.
func renderField(s webhook.Summary, f webhook.Field) app.UI {
	text := f.Value
	switch f.Role {
	case webhook.RoleState:
		// The states of bulks and operations; others as the receiver
		// wrote them.
		if w, ok := stateWord(f.Raw); ok {
			text = w
		}
	case webhook.RoleAmount, webhook.RoleCount:
		text = local(f.Value)
	case webhook.RoleCounts:
		text = stateCounts(f.Counts)
	}
	value := app.Dd().Text(text)
	if s.BulkID != "" && f.Value == s.BulkID && f.Path == "bulkId" {
		value = app.Dd().Body(
			app.A().Class("bulk-link").Href(bulkHref(s.BulkID, false)).Aria("label", tf("Open bulk %s on the bulk page", s.BulkID)).Text(s.BulkID),
		)
	}
	return app.Div().Class("event-field").Body(app.Dt().Text(t(f.Label)), value)
}

// stateCounts writes the counts of a bulk's operations by state as the
// bulk's page does, in the console's words and numbers: "9.990
// abgeschlossen, 10 fehlgeschlagen".
func stateCounts(counts []webhook.StateCount) string {
	parts := make([]string, 0, len(counts))
	for _, c := range counts {
		n, err := strconv.Atoi(c.Count)
		if err != nil {
			parts = append(parts, c.Count+" "+c.State)
			continue
		}
		switch c.State {
		case wire.OperationCompleted:
			parts = append(parts, tf("%s completed", count(n)))
		case wire.OperationFailed:
			parts = append(parts, tf("%s failed", count(n)))
		case wire.OperationCancelled:
			parts = append(parts, tf("%s cancelled", count(n)))
		default:
			word, ok := stateWord(c.State)
			if !ok {
				word = c.State
			}
			parts = append(parts, count(n)+" "+strings.ToLower(word))
		}
	}
	return strings.Join(parts, ", ")
}

func (p *eventsPage) filterChosen(ctx app.Context, e app.Event) {
	p.filter = ctx.JSSrc().Get("value").String()
	p.shown = eventsPageSize
	u := *ctx.Page().URL()
	q := u.Query()
	if p.filter == "" {
		q.Del("type")
	} else {
		q.Set("type", p.filter)
		if svc := consoleEvents(); svc != nil {
			svc.Backfill(p.filter)
		}
	}
	u.RawQuery = q.Encode()
	ctx.Page().ReplaceURL(&u)
	p.refresh()
	p.announcement = tf("%s shown.", plural(p.matching, "event", "events"))
}

func (p *eventsPage) showMore(ctx app.Context, e app.Event) {
	p.shown += eventsPageSize
	p.refresh()
}

func (p *eventsPage) toggle(seq uint64) {
	p.open[seq] = !p.open[seq]
}

func (p *eventsPage) dismissGaps(ctx app.Context, e app.Event) {
	if n := len(p.status.Gaps); n > 0 {
		p.dismissed = p.status.Gaps[n-1].At
	}
}

func (p *eventsPage) retry(ctx app.Context, e app.Event) {
	if svc := consoleEvents(); svc != nil {
		svc.Retry()
	}
}
