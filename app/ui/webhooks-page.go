package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bulkdesk/bulkdesk/app/ui/eventfeed"
	"github.com/bulkdesk/bulkdesk/app/webhook"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// checkDelay is how long the verifier waits after a keystroke before it
// checks again: typing a key checks once, not once per character.
const checkDelay = 150 * time.Millisecond

// webhooksPage is the webhook verifier: an integrator pastes an event's
// headers and body, types the key, and sees a verdict on each signature
// header with its reason, and, when signature-v2 does not match, the exact
// message it should have signed and the likely mistake.
//
// Verification runs here on the page: package webhook adds a few
// kilobytes to the page's WebAssembly (its hashing and HTTP header code
// is linked already), and checking a body of a megabyte takes
// milliseconds, so a round trip to the worker would buy nothing.
//
// The key lives in this component's memory only: it is read from the
// password field on each keystroke, held as a webhook.Key (which never
// prints), never rendered back, stored, put in the URL or logged, and
// dropped when the operator forgets it or leaves the page.
type webhooksPage struct {
	app.Compo

	headers string
	body    []byte
	// bodyFile and bodyEvent say where the body came from, when not typed
	// or pasted: a file, which keeps bytes a text field changes (line
	// endings), or an event the console holds.
	bodyFile   string
	bodyEvent  uint64
	key        webhook.Key
	checkClock bool
	// fromEvent is the event the page was loaded with, if any; wantEvent
	// the one it waits for the console to load.
	fromEvent, wantEvent uint64
	stopEvents           func()

	result       verification
	checks       int // numbers scheduled checks; only the last one runs
	announcement string
}

func newWebhooksPage() *webhooksPage { return &webhooksPage{} }

// OnNav loads the event named by ?event=N, one the console holds, so that
// an operator checks its signature without copying it. When the console
// has not loaded its events yet (the page was opened by its address), it
// waits for them.
func (p *webhooksPage) OnNav(ctx app.Context) {
	seq, err := strconv.ParseUint(ctx.Page().URL().Query().Get("event"), 10, 64)
	if err != nil || seq == 0 || seq == p.fromEvent {
		return
	}
	p.wantEvent = seq
	if !p.loadEvent(ctx) && p.stopEvents == nil {
		p.stopEvents = subscribeEvents(ctx, func(ctx app.Context, u eventfeed.Update) {
			if p.wantEvent != 0 && !p.loadEvent(ctx) && u.Status.State == eventfeed.StateLive {
				p.announcement = tf("Event #%d is not among the events this console holds.", p.wantEvent)
				p.wantEvent = 0
			}
		})
	}
}

// loadEvent fills the form with the wanted event, if the console holds it.
func (p *webhooksPage) loadEvent(ctx app.Context) bool {
	svc := consoleEvents()
	if svc == nil {
		return false
	}
	ev, ok := svc.Event(p.wantEvent)
	if !ok {
		return false
	}
	p.fromEvent, p.wantEvent = ev.Seq, 0
	p.headers, p.body = eventHeaderLines(ev), []byte(ev.Body)
	p.bodyFile, p.bodyEvent = "", ev.Seq
	p.check()
	ctx.Defer(func(app.Context) {
		setValue("verify-headers", p.headers)
		setValue("verify-body", ev.Body)
	})
	return true
}

func (p *webhooksPage) OnDismount() {
	p.forget()
	if p.stopEvents != nil {
		p.stopEvents()
		p.stopEvents = nil
	}
}

func (p *webhooksPage) Render() app.UI {
	return newShell().Route("/webhooks").Announcement(p.announcement).Content(
		app.P().Class("lead").Text(t("Check a webhook event's signatures: paste the headers and the body exactly as your endpoint received them, and type the API key. Nothing leaves this page.")),
		app.If(p.fromEvent > 0, func() app.UI {
			return app.P().ID("verify-source").Class("note").Text(tf("Loaded with event #%d as the receiver accepted it. Type the key to check it again.", p.fromEvent))
		}),
		app.Div().Class("verify-form").Body(
			app.Div().Class("field").Body(
				app.Label().For("verify-headers").Text(t("Headers")),
				app.P().ID("verify-headers-hint").Class("hint").Text(t("One \"name: value\" a line, as curl -v or a log shows them, or a JSON object. The signature, signature-v2, published-timestamp and call-ref headers count; others are ignored.")),
				app.Textarea().ID("verify-headers").Class("textarea", "mono").Rows(6).Spellcheck(false).
					Aria("describedby", "verify-headers-hint").
					Placeholder("call-ref: …\npublished-timestamp: 1718000000000\nsignature-v2: …\nsignature: …").
					OnInput(p.headersTyped),
			),
			app.Div().Class("field").Body(
				app.Label().For("verify-body").Text(t("Body")),
				app.P().ID("verify-body-hint").Class("hint").Text(t("The raw request body, every byte: a space or a line ending more or less changes the signature. A browser turns pasted line endings into LF; load the body from a file to keep them.")),
				app.Textarea().ID("verify-body").Class("textarea", "mono").Rows(8).Spellcheck(false).
					Aria("describedby", "verify-body-hint").
					OnInput(p.bodyTyped),
				app.P().ID("verify-body-size").Class("hint").Text(p.bodyDescription()),
			),
			newFileDrop().
				ID("verify-body-file").
				Label(t("Or load the body from a file")).
				Hint(t("Its exact bytes are checked.")).
				OnFile(p.bodyFileChosen),
			app.Div().Class("field").Body(
				app.Label().For("verify-key").Text(t("API key")),
				app.P().ID("verify-key-hint").Class("hint").Text(t("Kept in this page's memory only: never stored, never sent, and forgotten when you leave the page.")),
				app.Div().Class("key-row").Body(
					app.Input().ID("verify-key").Type("password").Class("input", "mono").
						AutoComplete(false).Spellcheck(false).Attr("autocapitalize", "off").
						Aria("describedby", "verify-key-hint").
						OnInput(p.keyTyped),
					app.Button().ID("verify-forget").Type("button").Class("button", "button-quiet").Text(t("Forget the key")).OnClick(p.forgetClicked),
				),
			),
			app.Div().Class("check").Body(
				p.clockBox(),
				app.Label().For("verify-clock").Text(tf("Also check that published-timestamp is within %s of this computer's clock, as a receiver does", plural(int(webhook.DefaultTolerance.Minutes()), "minute", "minutes"))),
			),
		),
		p.renderResult(),
	)
}

func (p *webhooksPage) clockBox() app.UI {
	box := app.Input().Type("checkbox").ID("verify-clock").OnChange(p.clockChosen)
	if p.checkClock {
		box = box.Checked(true)
	}
	return box
}

func (p *webhooksPage) bodyDescription() string {
	switch {
	case len(p.body) == 0:
		return t("No body yet.")
	case p.bodyEvent != 0:
		return tf("%s of event #%d, as the receiver accepted them.", plural(len(p.body), "byte", "bytes"), p.bodyEvent)
	case p.bodyFile != "":
		return tf("%s from %s, exactly as in the file.", plural(len(p.body), "byte", "bytes"), p.bodyFile)
	default:
		return tf("%s as typed or pasted.", plural(len(p.body), "byte", "bytes"))
	}
}

func (p *webhooksPage) renderResult() app.UI {
	v := p.result
	switch {
	case v.headersErr != "":
		return app.Div().ID("verify-result").DataSet("state", "bad-headers").Class("alert").Role("alert").Text(tf("The headers could not be read: %s", v.headersErr))
	case v.result == nil:
		return app.P().ID("verify-result").DataSet("state", "waiting").Class("note").Text(tf("Give %s to check the signatures.", strings.Join(verifyMissingWords(v.missing), ", ")))
	}
	r := v.result
	state, verdict := "accepted", t("Authentic: signature-v2 matches, so the body is what the holder of the key signed.")
	if !r.OK() {
		state, verdict = "rejected", t("Not authentic: a receiver must refuse this event.")
	}
	return app.Section().ID("verify-result").DataSet("state", state).Class("result").Aria("labelledby", "verify-verdict").Body(
		app.H2().ID("verify-verdict").Class("verdict", "verdict-"+state).Text(verdict),
		app.Table().ID("verdicts").Class("verdicts").Body(
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text(t("Header")),
				app.Th().Scope("col").Text(t("Verdict")),
				app.Th().Scope("col").Text(t("Why")),
			)),
			app.TBody().Body(
				app.Range(r.Verdicts()).Slice(func(i int) app.UI { return renderVerdict(r.Verdicts()[i]) }),
			),
		),
		renderSigned(r),
	)
}

// renderVerdict is one header's row: its status, the reason, the hints on
// a mismatch and, for a signature that does not match, the value it
// should have had (shown to the holder of the key only, which the person
// who typed it is).
func renderVerdict(v webhook.Verdict) app.UI {
	expected := v.Expected != "" && v.Status != webhook.StatusValid && (v.Header == webhook.HeaderSignatureV2 || v.Header == webhook.HeaderSignature)
	return app.Tr().Class("verdict-row", "verdict-"+verdictTone(v)).DataSet("header", v.Header).DataSet("status", string(v.Status)).Body(
		app.Th().Scope("row").Class("mono").Text(v.Header),
		app.Td().Class("verdict-status").Text(verdictWord(v.Status)),
		app.Td().Body(
			app.P().Class("verdict-reason").Text(v.Reason),
			app.If(v.Value != "", func() app.UI {
				return app.P().Class("verdict-value").Body(app.Text(t("Received: ")), app.Code().Text(v.Value))
			}),
			app.If(expected, func() app.UI {
				return app.P().Class("verdict-expected").Body(app.Text(t("With this key it would be: ")), app.Code().Text(v.Expected))
			}),
			app.If(len(v.Hints) > 0, func() app.UI {
				return app.Ul().Class("hints").Body(
					app.Range(v.Hints).Slice(func(i int) app.UI { return app.Li().Class("hint-item").Text(tf("Likely cause: %s", v.Hints[i])) }),
				)
			}),
		),
	)
}

// renderSigned shows what signature-v2 signs: the three parts, their
// lengths, the body's SHA-256, and the whole message, literally and with
// its invisible characters escaped. It is open when signature-v2 fails,
// which is when an integrator compares it with what their code signed.
func renderSigned(r *webhook.Result) app.UI {
	s := r.Signed
	parts := signedParts(s)
	quoted, cut := quotedMessage(s)
	details := app.Details().ID("verify-signed").Class("signed")
	if r.SignatureV2.Status != webhook.StatusValid {
		details = details.Open(true)
	}
	return details.Body(
		app.Summary().Text(t("What signature-v2 signs: call-ref + body + published-timestamp")),
		app.Dl().Class("signed-facts").Body(
			signedFact("signed-callref", "call-ref", describeCallRef(s.CallRef)),
			signedFact("signed-body-length", t("Body length"), plural(s.BodyLength, "byte", "bytes")),
			signedFact("signed-body-sha256", t("Body SHA-256"), s.BodySHA256),
			signedFact("signed-timestamp", "published-timestamp", s.Timestamp),
			signedFact("signed-length", t("Message length"), plural(len(s.Message), "byte", "bytes")),
			signedFact("signed-sha256", t("Message SHA-256"), messageSHA256(s)),
		),
		app.H3().Text(t("The message, exactly")),
		app.Pre().ID("signed-message").Class("signed-message").Body(
			app.Range(parts).Slice(func(i int) app.UI {
				pt := parts[i]
				return app.Span().Class("part", "part-"+pt.name).Title(fmt.Sprintf("%s, %s", verifyPartName(pt.name), plural(pt.bytes, "byte", "bytes"))).Text(pt.text)
			}),
		),
		app.If(cut, func() app.UI {
			return app.P().Class("hint").Text(tf("The message is shown up to its first %s; compare the rest by its hash.", plural(signedShownMax, "byte", "bytes")))
		}),
		app.H3().Text(t("The message with invisible characters escaped")),
		app.Pre().ID("signed-quoted").Class("signed-message").Text(quoted),
	)
}

func signedFact(id, label, value string) app.UI {
	return app.Div().Class("signed-fact").Body(app.Dt().Text(label), app.Dd().ID(id).Class("mono").Text(value))
}

// verifyMissingWords names what is still to be given, for people.
func verifyMissingWords(missing []string) []string {
	words := make([]string, len(missing))
	for i, m := range missing {
		switch m {
		case "headers":
			words[i] = t("headers")
		case "body":
			words[i] = t("body")
		case "key":
			words[i] = t("key")
		default:
			words[i] = m
		}
	}
	return words
}

// verifyPartName names a part of the signed message: the headers by their
// names, the body in the console's language.
func verifyPartName(name string) string {
	if name == "body" {
		return t("body")
	}
	return name
}

func describeCallRef(ref string) string {
	if ref == "" {
		return t("(empty: absent or blank)")
	}
	return fmt.Sprintf("%s (%s)", ref, plural(utf8.RuneCountInString(ref), "character", "characters"))
}

func (p *webhooksPage) headersTyped(ctx app.Context, e app.Event) {
	p.headers = ctx.JSSrc().Get("value").String()
	p.scheduleCheck(ctx)
}

func (p *webhooksPage) bodyTyped(ctx app.Context, e app.Event) {
	p.body, p.bodyFile, p.bodyEvent = []byte(ctx.JSSrc().Get("value").String()), "", 0
	p.scheduleCheck(ctx)
}

func (p *webhooksPage) keyTyped(ctx app.Context, e app.Event) {
	p.key = webhook.NewKey(ctx.JSSrc().Get("value").String())
	p.scheduleCheck(ctx)
}

func (p *webhooksPage) clockChosen(ctx app.Context, e app.Event) {
	p.checkClock = ctx.JSSrc().Get("checked").Bool()
	p.check()
}

// bodyFileChosen reads a file's bytes as the body.
func (p *webhooksPage) bodyFileChosen(ctx app.Context, file app.Value) {
	name := file.Get("name").String()
	file.Call("arrayBuffer").Then(func(buf app.Value) {
		arr := app.Window().Get("Uint8Array").New(buf)
		b := make([]byte, arr.Length())
		app.CopyBytesToGo(b, arr)
		ctx.Dispatch(func(ctx app.Context) {
			p.body, p.bodyFile, p.bodyEvent = b, name, 0
			if utf8.Valid(b) {
				setValue("verify-body", string(b))
			} else {
				setValue("verify-body", "")
			}
			p.check()
		})
	})
}

func (p *webhooksPage) forgetClicked(ctx app.Context, e app.Event) {
	p.forget()
	p.check()
	p.announcement = t("The key is forgotten.")
}

// forget drops the key from memory and from its field.
func (p *webhooksPage) forget() {
	p.key = webhook.Key{}
	setValue("verify-key", "")
}

// scheduleCheck checks after a pause in typing.
func (p *webhooksPage) scheduleCheck(ctx app.Context) {
	p.checks++
	n := p.checks
	ctx.After(checkDelay, func(ctx app.Context) {
		if n == p.checks {
			p.check()
		}
	})
}

func (p *webhooksPage) check() {
	p.checks++ // a check scheduled before this one is out of date
	p.result = verifyPasted(p.headers, p.body, p.key, p.checkClock, time.Now())
	if r := p.result.result; r != nil {
		if r.OK() {
			p.announcement = t("Authentic: signature-v2 matches.")
		} else {
			p.announcement = tf("Not authentic: %s", r.Reason())
		}
	}
}

// setValue sets the value of a form field, in the browser.
func setValue(id, value string) {
	if !app.IsClient {
		return
	}
	if el := app.Window().GetElementByID(id); el.Truthy() {
		el.Set("value", value)
	}
}
