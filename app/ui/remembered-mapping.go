package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/mappingmemory"
	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The console remembers how each set of headers was read (package
// mappingmemory, in the browser's IndexedDB): when the operator validates
// a file after changing how it is read, the mapping file of that reading
// is kept under the kind and the headers the file showed when it was
// opened. The next file that shows the same headers is read the same way,
// as a loaded mapping file would read it (Prepare.SavedMapping), with a
// notice that says so and one click back to the automatic reading
// (Prepare.Automatic). Its cells that disagree with the remembered
// settings are flagged as with any mapping file.

// rememberedMappingsName names the IndexedDB database of the memory.
const rememberedMappingsName = "bulkdesk-mappings"

var (
	memoryOnce sync.Once
	memory     *mappingmemory.Memory
	memoryErr  error
)

// rememberedMappings opens the memory once; call it from a goroutine.
func rememberedMappings() (*mappingmemory.Memory, error) {
	memoryOnce.Do(func() { memory, memoryErr = openRememberedMappings() })
	return memory, memoryErr
}

// mappingMemory is the import page's side of the memory: it looks up each
// file's headers as the worker first reads them, applies what it finds,
// and remembers the reading of a file the operator validated.
type mappingMemory struct {
	// kept counts the sets of headers remembered, -1 until known.
	kept int
	// heldBack says the file being opened was not built at once, so that
	// a remembered reading could come first.
	heldBack bool
	// looked are the "document/kind" pairs looked up already.
	looked map[string]bool
	// firstHeaders are the headers each document showed when first read:
	// the ones the next file will show, whatever the operator changed.
	firstHeaders map[int][]string
	// applied is the remembered reading of the open document, if any.
	applied *recalled
	// remember is the document whose next build is to be remembered.
	remember int
	// saved is the document whose reading was just remembered.
	saved int
}

// A recalled reading is one applied to a document, with how the document
// was read before it, to go back.
type recalled struct {
	document int
	r        mappingmemory.Remembered
	kind     string
	sheet    string
	encoding string
	// delimiter is how the file was read before; undone says the
	// operator went back to it.
	delimiter string
	undone    bool
	// arrived says the worker read the document as remembered: the
	// notice waits for it. told says the page announced it.
	arrived, told bool
}

func newMappingMemory() mappingMemory {
	return mappingMemory{kept: -1, looked: make(map[string]bool), firstHeaders: make(map[int][]string)}
}

// warm opens the memory and counts it, so that the first file opened can
// be built at once when there is nothing to recall.
func (m *mappingMemory) warm(ctx app.Context) {
	ctx.Async(func() {
		// A memory that cannot be read recalls nothing: as good as empty.
		n := 0
		if mem, err := rememberedMappings(); err == nil {
			if c, err := mem.Len(context.Background()); err == nil {
				n = c
			}
		}
		ctx.Dispatch(func(app.Context) { m.kept = n })
	})
}

// buildAtOnce says whether a file may be built as it is opened: only when
// nothing is remembered, since a remembered reading would build it again.
func (m *mappingMemory) buildAtOnce() bool {
	m.heldBack = m.kept != 0
	return !m.heldBack
}

// validating asks to remember how document doc is read once it is built.
func (m *mappingMemory) validating(doc int) { m.remember = doc }

// readingArrived takes every reading the worker sends before the page
// shows it: it remembers a validated one, and looks up the headers of a
// document it has not looked up for its kind, applying what it finds.
func (m *mappingMemory) readingArrived(p *importPage, pr *wire.Prepared) {
	m.rememberBuilt(p, pr)
	if m.applied != nil && m.applied.document != pr.Document {
		m.applied = nil
	}
	headers := headersOf(pr)
	key := fmt.Sprint(pr.Document, "/", pr.Kind)
	if pr.Request || len(headers) == 0 || m.looked[key] {
		if m.applied != nil {
			m.applied.arrived = true
		}
		p.showPrepared(p.ctx, pr)
		m.announce(p)
		return
	}
	m.looked[key] = true
	if _, ok := m.firstHeaders[pr.Document]; !ok {
		m.firstHeaders[pr.Document] = headers
	}
	// A kind the headers only suggested may be the one the operator
	// read them as last time, or not.
	kind := pr.Kind
	if pr.KindSuggested {
		kind = ""
	}
	held := m.heldBack
	m.heldBack = false
	run := p.run
	p.busy = &busyJob{label: t("Looking for how these headers were read before")}
	// The look-up takes milliseconds: the page stays as it is until its
	// answer, rather than being drawn again for them and once more after.
	p.ctx.PreventUpdate()
	p.ctx.Async(func() {
		r, found := recall(kind, headers)
		p.ctx.Dispatch(func(ctx app.Context) {
			if run != p.run {
				return // another file or choice came since
			}
			p.busy = nil
			switch {
			case found:
				m.looked[fmt.Sprint(pr.Document, "/", r.Kind)] = true
				m.applied = &recalled{document: pr.Document, r: r, kind: pr.Kind, sheet: pr.Sheet, encoding: pr.Encoding, delimiter: pr.Delimiter}
				p.prep = pr
				p.prepare(ctx, m.applying(r), tf("Reading %s as last time", pr.FileName))
			case held && pr.Ready && pr.Summary == nil:
				p.prep = pr
				p.prepare(ctx, wire.Prepare{Auto: true}, tf("Validating %s", pr.FileName))
			default:
				p.showPrepared(ctx, pr)
			}
		})
	})
}

// recall looks up how headers were last read as kind ("" for any); a
// memory that cannot be read recalls nothing, and the page reads the
// file as it would without one.
func recall(kind string, headers []string) (mappingmemory.Remembered, bool) {
	mem, err := rememberedMappings()
	if err != nil {
		app.Log("the remembered mappings:", err)
		return mappingmemory.Remembered{}, false
	}
	r, ok, err := mem.Recall(context.Background(), kind, headers)
	if err != nil {
		app.Log("the remembered mappings:", err)
	}
	return r, ok
}

// applying is the request that reads a document as r says, as the kind
// the operator read it as: a choice, no longer a suggestion.
func (m *mappingMemory) applying(r mappingmemory.Remembered) wire.Prepare {
	return wire.Prepare{SavedMapping: r.Mapping, Kind: r.Kind, Auto: true}
}

// toggle undoes the remembered reading of the open document, back to the
// automatic one, or applies it again.
func (m *mappingMemory) toggle(p *importPage, ctx app.Context) {
	a, pr := m.applied, p.prep
	if a == nil || pr == nil || pr.Document != a.document {
		return
	}
	p.focusNext = "remembered-toggle"
	if a.undone {
		a.undone = false
		p.prepare(ctx, m.applying(a.r), tf("Reading %s as last time", pr.FileName))
		return
	}
	a.undone = true
	req := wire.Prepare{Automatic: true, Auto: true}
	if a.kind != "" && a.kind != pr.Kind {
		req.Kind = a.kind
	}
	if a.sheet != "" && a.sheet != pr.Sheet {
		req.Sheet = a.sheet
	}
	if a.encoding != "" && a.encoding != pr.Encoding {
		req.Encoding = a.encoding
	}
	if a.delimiter != "" && a.delimiter != pr.Delimiter {
		req.Delimiter = a.delimiter
	}
	p.prepare(ctx, req, tf("Reading %s automatically", pr.FileName))
}

// rememberBuilt remembers the reading of a document built at the
// operator's request, when they chose any of it: the mapping file of the
// document, under the headers it showed when first read.
func (m *mappingMemory) rememberBuilt(p *importPage, pr *wire.Prepared) {
	if pr.Summary == nil || m.remember != pr.Document {
		return
	}
	m.remember = 0
	if !operatorChose(pr) {
		return
	}
	headers, ok := m.firstHeaders[pr.Document]
	if !ok {
		headers = headersOf(pr)
	}
	doc, kind := pr.Document, pr.Kind
	runJob(p.ctx, wire.JobExport, wire.Export{Document: doc, What: wire.ExportMapping}, nil, func(_ wire.Exported, data app.Value, err error) {
		if err != nil {
			app.Log("remembering the mapping:", err)
			return
		}
		text := app.Window().Get("TextDecoder").New().Call("decode", data).String()
		p.ctx.Async(func() {
			mem, err := rememberedMappings()
			if err == nil {
				err = mem.Remember(context.Background(), mappingmemory.Remembered{Kind: kind, Headers: headers, Mapping: text})
			}
			p.ctx.Dispatch(func(app.Context) {
				if err != nil {
					app.Log("remembering the mapping:", err)
					return
				}
				m.saved, m.kept = doc, max(m.kept, 1)
			})
		})
	})
}

// announce adds the notice of a remembered reading to what the page
// announces, the first time the page shows it.
func (m *mappingMemory) announce(p *importPage) {
	if a := m.applied; a != nil && a.arrived && !a.told && p.prep != nil && p.prep.Document == a.document {
		a.told = true
		p.announcement = rememberedText(p.prep) + " " + p.announcement
	}
}

// render is the notice for the open document.
func (m *mappingMemory) render(p *importPage) app.UI {
	n := newRememberedNotice()
	pr := p.prep
	switch a := m.applied; {
	case pr == nil || m.applied != nil && !m.applied.arrived:
	case a != nil && a.document == pr.Document && a.undone:
		n.Text(t("Read automatically: what was remembered for these headers is not applied to this file.")).
			Button(t("Read as last time"), func(ctx app.Context) { m.toggle(p, ctx) })
	case a != nil && a.document == pr.Document:
		n.Text(rememberedText(pr)).
			Detail(tf("You chose it on %s, when you validated a file with the same headers.", consoleLang.Day(a.r.Saved.Local()))).
			Button(t("Undo: read it automatically"), func(ctx app.Context) { m.toggle(p, ctx) })
	case m.saved == pr.Document && p.step == stepReview:
		n.Text(t("Remembered: the next file with these headers is read the same way."))
	}
	return n
}

// rememberedText says that a document is read as last time, and how.
func rememberedText(pr *wire.Prepared) string {
	return tf("Read as last time for these headers: %s.", strings.Join(readingParts(pr), ", "))
}

// readingParts are the parts of a document's reading the operator
// chooses, in words: the columns mapped, the header row and sheet, and
// the settings that matter to the file.
func readingParts(pr *wire.Prepared) []string {
	mapped := 0
	for _, c := range pr.Columns {
		if c.Field != "" {
			mapped++
		}
	}
	parts := []string{plural(mapped, "column mapped", "columns mapped")}
	if n := len(pr.Values); n > 0 {
		parts = append(parts, plural(n, "value set for every row", "values set for every row"))
	}
	if pr.HeaderRow > 0 {
		parts = append(parts, tf("headers on row %d", pr.HeaderRow))
	}
	if len(pr.Sheets) > 1 && pr.Sheet != "" {
		parts = append(parts, tf("the sheet %s", pr.Sheet))
	}
	for _, sw := range settingWords {
		if slices.Contains(pr.SettingsMatter, sw.setting) {
			if w, ok := sw.words[sw.value(pr.Settings)]; ok {
				parts = append(parts, t(w))
			}
		}
	}
	if slices.Contains(pr.SettingsMatter, wire.SettingCurrency) && pr.Settings.Currency != "" {
		parts = append(parts, tf("currency %s", pr.Settings.Currency))
	}
	if slices.Contains(pr.SettingsMatter, wire.SettingTimeZone) && pr.Settings.TimeZone != "" {
		parts = append(parts, tf("time zone %s", pr.Settings.TimeZone))
	}
	return parts
}

// settingWords say the values of the settings that matter to a file in
// words.
var settingWords = []struct {
	setting string
	value   func(wire.Settings) string
	words   map[string]string
}{
	{wire.SettingAmounts, func(s wire.Settings) string { return s.Amounts }, map[string]string{
		wire.AmountsMajor: lang.Mark("amounts in major units"), wire.AmountsMinor: lang.Mark("amounts in minor units"), "": lang.Mark("amounts in minor units"),
	}},
	{wire.SettingSeparators, func(s wire.Settings) string { return s.Decimal }, map[string]string{
		",": lang.Mark("decimal comma"), ".": lang.Mark("decimal point"),
	}},
	{wire.SettingDates, func(s wire.Settings) string { return s.DateOrder }, map[string]string{
		"DMY": lang.Mark("day first"), "MDY": lang.Mark("month first"), "YMD": lang.Mark("year first"),
	}},
}

// headersOf are a reading's column headers.
func headersOf(pr *wire.Prepared) []string {
	var out []string
	for _, c := range pr.Columns {
		if h := strings.TrimSpace(c.Header); h != "" {
			out = append(out, h)
		}
	}
	return out
}

// operatorChose reports a reading the operator chose any of: a column's
// field, a value for every row, or a decision such as the header row, the
// units, the dates or their time zone.
func operatorChose(pr *wire.Prepared) bool {
	if len(pr.Values) > 0 {
		return true
	}
	for _, c := range pr.Columns {
		if c.Match == wire.MatchManual {
			return true
		}
	}
	r := pr.Reading
	for _, name := range reading.Names {
		if d := r.Get(name); d != nil && d.How == reading.Chosen {
			return true
		}
	}
	return false
}
