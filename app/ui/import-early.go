package ui

import (
	"sync"

	"github.com/bulkdesk/bulkdesk/app/ui/workerclient"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The import page takes a file before its program runs: the server's
// HTML of the page is live at once, and its early script (web/early.js)
// sends the file chosen or dropped to the worker app.js started, as
// open would. When the page starts, it adopts what the script did, kept
// in self.bulkdeskEarlyImport, and goes on as if the operator had made
// the same choices on it: the kind, the job under way (its id, the
// file's name, whether it builds at once), or the pasted rows to read,
// and the text in the paste box. go-app draws the page anew as it
// starts, so none of this is read from the page's elements.

// earlyImport is what the early script did before the page ran.
type earlyImport struct {
	kind string
	// job is the id of the open job the script sent, 0 for none; file
	// is the file chosen, also when its job was not sent yet.
	job      int
	file     app.Value
	fileName string
	auto     bool
	// paste is the text in the paste box; readPasted says the operator
	// asked to read it.
	paste      string
	readPasted bool
}

// takeEarlyImport returns what the early script did, and whether it ran;
// the first call closes the script, so that the page takes every later
// choice, and the next calls return the same.
var takeEarlyImport = sync.OnceValues(func() (earlyImport, bool) {
	if !app.IsClient {
		return earlyImport{}, false
	}
	win := app.Window()
	s := win.Get("bulkdeskEarlyImport")
	if !s.Truthy() {
		return earlyImport{}, false
	}
	win.Set("bulkdeskEarlyImport", app.Undefined())
	s.Set("closed", true)
	str := func(v app.Value) string {
		if v.Type() == app.TypeString {
			return v.String()
		}
		return ""
	}
	e := earlyImport{kind: str(s.Get("kind")), paste: str(s.Get("paste")), readPasted: s.Get("readPasted").Truthy()}
	if j := s.Get("job"); j.Truthy() {
		if id := j.Get("id"); id.Type() == app.TypeNumber {
			e.job = id.Int()
		}
		e.file, e.fileName, e.auto = j.Get("file"), str(j.Get("fileName")), j.Get("auto").Truthy()
		e.kind = str(j.Get("kind"))
	}
	return e, true
})

// takeEarly takes what the early script did, if it ran, and the kind
// chosen on it: a kind chosen early goes through the ordinary API, since
// the page showed no back-office box.
func (p *importPage) takeEarly() *earlyImport {
	e, ok := takeEarlyImport()
	if !ok {
		return nil
	}
	if k, ok := kindByID(p.kinds, e.kind); ok {
		p.kindID = k.ID
	}
	return &e
}

// drop cancels the job the early script sent, which the page does not
// adopt.
func (e *earlyImport) drop() {
	if e != nil && e.job > 0 {
		cancelJobByID(e.job)
	}
}

// adoptEarly takes over the file or pasted rows the early script was
// given, and reports whether there was one.
func (p *importPage) adoptEarly(ctx app.Context, early *earlyImport) bool {
	if early == nil {
		return false
	}
	e := *early
	mark("early-adopted")
	switch {
	case e.job > 0:
		p.adoptOpen(e)
	case e.file != nil && e.file.Truthy():
		// Chosen, but the script had not sent it yet: the page does.
		p.fileName = e.fileName
		p.open(ctx, wire.Open{FileName: p.fileName}, e.file)
	case e.readPasted && e.paste == "":
		p.fail(t("Paste the rows first: select them in the spreadsheet, copy, and paste them in the box."))
		return false
	case e.readPasted:
		p.pasteChosen(ctx, e.paste)
	default:
		return false
	}
	return true
}

// adoptOpen takes the open job the early script sent as open would have
// sent it: the same request, so the same steps follow.
func (p *importPage) adoptOpen(e earlyImport) {
	p.stop()
	p.prep, p.sum, p.failure = nil, nil, ""
	p.fileName = e.fileName
	// Built at once or not, as the script decided; not built, the
	// remembered readings are looked up first, and the file is built
	// once none applies (readingArrived).
	p.memory.heldBack = !e.auto
	loadWith(p, tf("Reading %s", e.fileName), p.prepared, func(progress func(wire.Progress), finished func(wire.Prepared, app.Value, error)) func() {
		return adoptJob(p.ctx, e.job, progress, finished)
	})
}

// adoptJob is runJob for a job the early script sent, with id.
func adoptJob[T any](ctx app.Context, id int, progress func(wire.Progress), done func(result T, data app.Value, err error)) (cancel func()) {
	return sendJob(ctx, progress, done, func(w *workerclient.Client, h workerclient.Handlers) func() {
		w.Adopt(id, h)
		return func() { w.Cancel(id) }
	})
}
