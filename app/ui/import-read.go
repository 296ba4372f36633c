package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// importRead is the import's second step: which sheet, which row holds
// the headers, which field each column fills, and how amounts,
// separators and dates are read — each shown with what it does to the
// file's own values. The worker reads the file again at each change; the
// step owns what waits to be sent: the column choices not applied yet,
// and the fields the operator added to those given a value for every
// row.
//
// It stays mounted while another step shows, empty, so that what it owns
// outlives a look at the review.
type importRead struct {
	app.Compo

	Ikinds []Kind
	// Iprep is how the open document is read.
	Iprep *wire.Prepared
	// Icurrent says the page shows this step.
	Icurrent bool
	// IonPrepare reads the document again with req, labelled label while
	// it runs; focus, when set, is the control to focus once it is read.
	IonPrepare  func(ctx app.Context, req wire.Prepare, label, focus string)
	IonValidate func(ctx app.Context, columns []wire.ColumnChoice)
	IonExport   func(ctx app.Context, what string)
	IonAnnounce func(ctx app.Context, text string)
	IonFail     func(ctx app.Context, message string)

	// pending are the column choices not applied yet, made on the reading
	// pendingFor: a newer reading applied or replaced them. mappingSeq
	// numbers the changes, so that only the last one applies them.
	pending    pendingMapping
	pendingFor *wire.Prepared
	mappingSeq int
	// setExtra are the fields the operator added to those offered a
	// value for every row, in document setExtraDoc (import-setvalues.go).
	setExtra    []string
	setExtraDoc int
	// ctx is the step's own context, for what runs after the event that
	// started it.
	ctx app.Context
}

func newImportRead() *importRead { return &importRead{} }

// Kinds sets the kinds a suggestion is named from.
func (r *importRead) Kinds(k []Kind) *importRead { r.Ikinds = k; return r }

// Prepared sets how the open document is read.
func (r *importRead) Prepared(pr *wire.Prepared) *importRead { r.Iprep = pr; return r }

// Current says whether the page shows this step.
func (r *importRead) Current(on bool) *importRead { r.Icurrent = on; return r }

// OnPrepare sets what reads the document again with a change.
func (r *importRead) OnPrepare(f func(ctx app.Context, req wire.Prepare, label, focus string)) *importRead {
	r.IonPrepare = f
	return r
}

// OnValidate sets what builds and validates the document, with the
// column choices not applied yet.
func (r *importRead) OnValidate(f func(ctx app.Context, columns []wire.ColumnChoice)) *importRead {
	r.IonValidate = f
	return r
}

// OnExport sets what downloads a file of the document (its mapping).
func (r *importRead) OnExport(f func(ctx app.Context, what string)) *importRead {
	r.IonExport = f
	return r
}

// OnAnnounce sets what tells screen readers.
func (r *importRead) OnAnnounce(f func(ctx app.Context, text string)) *importRead {
	r.IonAnnounce = f
	return r
}

// OnFail sets what shows why a change is not sent.
func (r *importRead) OnFail(f func(ctx app.Context, message string)) *importRead {
	r.IonFail = f
	return r
}

func (r *importRead) OnMount(ctx app.Context) {
	r.ctx = ctx
	mountedUnchanged(ctx)
}

func (r *importRead) Render() app.UI {
	if !r.Icurrent || r.Iprep == nil {
		return app.Text("") // mounted, empty: see importRead
	}
	return r.renderRead()
}

// prepare reads the document again with req.
func (r *importRead) prepare(ctx app.Context, req wire.Prepare, label string) {
	r.IonPrepare(ctx, req, label, "")
}

// pendingNow are the column choices made on the reading shown and not
// applied yet.
func (r *importRead) pendingNow() pendingMapping {
	if r.pendingFor != r.Iprep {
		return nil
	}
	return r.pending
}

// validate builds and validates the document as it is read now, with the
// column choices not applied yet.
func (r *importRead) validate(ctx app.Context, e app.Event) {
	pr := r.Iprep
	if pr == nil {
		return
	}
	pending := r.pendingNow()
	if c := pending.conflicts(pr.Columns); len(c) > 0 {
		for f, letters := range c {
			r.IonFail(ctx, tf("Columns %s all fill %s: keep one, then validate.", strings.Join(letters, ", "), f))
		}
		return
	}
	r.mappingSeq++ // the choices go with this request
	r.IonValidate(ctx, pending.choices(pr.Columns))
}

func (r *importRead) renderRead() app.UI {
	pr := r.Iprep
	return app.Section().ID("read").Class("panel").Aria("labelledby", "step-title").Body(
		app.H2().ID("step-title").TabIndex(-1).Text(tf("Check how %s is read", pr.FileName)),
		// The blocks above the controls stay in place, empty or not: go-app
		// matches children by position, and a block that comes and goes
		// would make it rebuild the controls below, and lose the focus.
		app.Ul().Class("notes").Body(app.Range(pr.Notes).Slice(func(i int) app.UI {
			return app.Li().Text(pr.Notes[i])
		})),
		r.renderSuggestion(),
		r.renderReadingCheck(),
		app.Div().Class("read-source").Body(
			app.If(len(pr.Sheets) > 1, r.renderSheetPicker),
			// A JSON file's objects name their fields: it has no header row.
			app.If(pr.Format != wire.FormatJSON, func() app.UI {
				return app.Div().Class("field", "field-narrow").Body(
					app.Label().For("header-row").Text(t("Header row")),
					app.Input().ID("header-row").Type("number").Class("input").Min(1).Value(pr.HeaderRow).
						Aria("describedby", "header-row-hint").OnChange(r.headerRowChosen),
					app.P().ID("header-row-hint").Class("hint").Text(tf("%s with values below it.", plural(pr.DataRows, "row", "rows"))),
				)
			}).Else(func() app.UI {
				return app.P().ID("header-row-hint").Class("hint").Text(tf("%s, each naming its fields.", plural(pr.DataRows, "object", "objects")))
			}),
		),
		r.renderMapping(),
		r.renderSettings(),
		app.Div().Class("actions").Body(
			app.Button().ID("validate").Type("button").Class("button").
				Text(tf("Validate %s", plural(pr.DataRows, "row", "rows"))).
				OnClick(r.validate),
			app.If(len(pr.Missing) > 0, func() app.UI {
				return app.Span().Class("hint").Text(t("Rows without a required field are refused; you can still validate to see them."))
			}),
		),
	)
}

func (r *importRead) renderSuggestion() app.UI {
	pr := r.Iprep
	if !pr.KindSuggested {
		return app.Div().ID("suggestion")
	}
	title := pr.Kind
	for _, k := range r.Ikinds {
		if k.ID == pr.Kind {
			title = t(k.Title)
		}
	}
	suggestion := kindSuggestion(title, pr.Suggestions)
	return app.Div().ID("suggestion").Class("callout").Role("note").Body(
		app.P().Text(suggestion),
		app.Button().ID("confirm-kind").Type("button").Class("button", "button-quiet").
			Text(tf("Read it as %s", title)).
			OnClick(r.confirmKind),
	)
}

// confirmKind takes the suggested kind as the operator's choice.
func (r *importRead) confirmKind(ctx app.Context, e app.Event) {
	if pr := r.Iprep; pr != nil && pr.Kind != "" {
		r.prepare(ctx, wire.Prepare{Kind: pr.Kind}, tf("Reading %s", pr.FileName))
	}
}

func (r *importRead) renderSheetPicker() app.UI {
	pr := r.Iprep
	return app.Div().Class("field").Body(
		app.Label().For("sheet").Text(t("Sheet")),
		app.Select().ID("sheet").Class("select").OnChange(func(ctx app.Context, e app.Event) {
			name := ctx.JSSrc().Get("value").String()
			r.prepare(ctx, wire.Prepare{Sheet: name}, tf("Reading the sheet %s", name))
		}).Body(
			app.Range(pr.Sheets).Slice(func(i int) app.UI {
				s := pr.Sheets[i]
				label := s.Name
				switch {
				case s.Hidden && s.Empty:
					label = tf("%s (hidden, empty)", s.Name)
				case s.Hidden:
					label = tf("%s (hidden)", s.Name)
				case s.Empty:
					label = tf("%s (empty)", s.Name)
				}
				return option(s.Name, label, s.Name == pr.Sheet)
			}),
		),
	)
}

func (r *importRead) headerRowChosen(ctx app.Context, e app.Event) {
	n, err := strconv.Atoi(ctx.JSSrc().Get("value").String())
	if err != nil || n < 1 {
		r.IonFail(ctx, t("The header row is a row number: 1 or more."))
		return
	}
	r.prepare(ctx, wire.Prepare{HeaderRow: n}, tf("Reading row %d as the header", n))
}

func (r *importRead) renderMapping() app.UI {
	pr := r.Iprep
	conflicts := r.pendingNow().conflicts(pr.Columns)
	return app.Div().Class("mapping").Body(
		app.H3().ID("mapping-title").Text(t("Columns")),
		app.P().ID("mapping-summary").Text(mappingSummary(pr.Columns)),
		r.renderMissing(),
		app.Div().Class("table-scroll", "mapping-scroll").Body(
			app.Table().Class("mapping-table").Aria("labelledby", "mapping-title").Body(
				app.THead().Body(app.Tr().Body(
					app.Th().Scope("col").Text(t("Column")),
					app.Th().Scope("col").Text(t("Header")),
					app.Th().Scope("col").Text(t("First values")),
					app.Th().Scope("col").Text(t("Fills the field")),
				)),
				app.TBody().Body(
					app.Range(pr.Columns).Slice(func(i int) app.UI { return r.renderColumn(pr.Columns[i], conflicts) }),
				),
			),
		),
		r.renderSetValues(),
		app.Div().Class("mapping-file").Body(
			app.Label().For("mapping-file").Class("field-label").Text(t("Load a saved mapping")),
			app.Input().ID("mapping-file").Type("file").Class("file-input").Accept(".json,application/json").OnChange(r.mappingFileChosen),
			app.Button().ID("save-mapping").Type("button").Class("button", "button-quiet").
				Text(t("Save this mapping")).OnClick(func(ctx app.Context, e app.Event) { r.IonExport(ctx, wire.ExportMapping) }),
		),
	)
}

// renderMissing names the required fields no column fills; it stays in
// place, empty, when there are none (see renderRead).
func (r *importRead) renderMissing() app.UI {
	missing := app.Div().ID("missing-fields").Role("alert")
	if m := r.Iprep.Missing; len(m) > 0 {
		names := make([]string, len(m))
		for i, f := range m {
			names[i] = fieldLabel(f)
		}
		return missing.Class("alert").Text(tf("Required fields that no column fills: %s. Map a column to each, or give it the same value for every row below.", strings.Join(names, ", ")))
	}
	return missing
}

func (r *importRead) renderColumn(c wire.ColumnView, conflicts map[string][]string) app.UI {
	label, tone := columnStatus(c)
	field := r.pendingNow().field(c)
	if field != c.Field {
		label, tone = t("Chosen, applying…"), "ok"
	}
	id := fmt.Sprintf("map-%d", c.Column)
	header := c.Header
	if header == "" {
		header = t("(no header)")
	}
	if others, clash := conflicts[field]; clash {
		label, tone = tf("Columns %s all fill %s: keep one", strings.Join(others, ", "), field), "bad"
	}
	suggested := make(map[string]bool)
	for _, s := range c.Suggestions {
		suggested[s] = true
	}
	targets := r.Iprep.Targets
	byPath := make(map[string]wire.Target, len(targets))
	for _, tg := range targets {
		byPath[tg.Path] = tg
	}
	sel := app.Select().ID(id).Class("select", "select-field").DataSet("column", c.Column).
		Aria("label", tf("Field for column %s, %s", c.Letter, header)).
		Aria("describedby", id+"-status").
		OnChange(r.columnSelected)
	if tone == "bad" {
		sel = sel.Aria("invalid", "true")
	}
	return app.Tr().Class("mapping-"+tone).Body(
		app.Th().Scope("row").Text(c.Letter),
		app.Td().Class("mapping-header").Body(breakAfterDots(header)...),
		app.Td().Class("samples").Text(strings.Join(c.Samples, " · ")),
		// The status goes under the menu, not in a column of its own:
		// the menu shows the field's whole name and path, which leaves a
		// page 1024 pixels wide no room for a fifth column.
		app.Td().Class("mapping-field").Body(
			sel.Body(
				option("", t("Not imported"), field == ""),
				app.If(len(c.Suggestions) > 0, func() app.UI {
					return app.OptGroup().Label(t("Suggested")).Body(app.Range(c.Suggestions).Slice(func(i int) app.UI {
						s := c.Suggestions[i]
						tg, ok := byPath[s]
						if !ok {
							tg = wire.Target{Path: s}
						}
						return option(s, targetLabel(tg), s == field)
					}))
				}),
				app.OptGroup().Label(t("Fields")).Body(app.Range(targets).Slice(func(i int) app.UI {
					t := targets[i]
					if suggested[t.Path] {
						return nil
					}
					return option(t.Path, targetLabel(t), t.Path == field)
				})),
			),
			app.Div().ID(id+"-status").Class("mapping-status", "status-"+tone).Text(label),
		),
	)
}

// columnSelected takes a column's new field from its menu. The column is
// read from the menu itself: go-app keeps an element's first handler when
// a newer one comes from the same code, so a handler would remember the
// column its menu was first made for.
func (r *importRead) columnSelected(ctx app.Context, e app.Event) {
	col, err := strconv.Atoi(ctx.JSSrc().Get("dataset").Get("column").String())
	if err == nil {
		r.columnChosen(ctx, col, ctx.JSSrc().Get("value").String())
	}
}

// mappingDelay is how long the page waits after a column's field changes
// before it asks the worker to apply it: arrow keys in a menu change the
// field at each press.
const mappingDelay = 400 * time.Millisecond

// columnChosen records the operator's choice for a column and, once the
// choices settle without conflict, applies them.
func (r *importRead) columnChosen(ctx app.Context, col int, field string) {
	if r.pendingNow() == nil {
		r.pending, r.pendingFor = make(pendingMapping), r.Iprep
	}
	r.pending[col] = field
	r.mappingSeq++
	seq := r.mappingSeq
	if c := r.pending.conflicts(r.Iprep.Columns); len(c) > 0 {
		for f, letters := range c {
			r.IonAnnounce(ctx, tf("Columns %s all fill %s: keep one.", strings.Join(letters, ", "), f))
		}
		return
	}
	r.ctx.After(mappingDelay, func(ctx app.Context) {
		if seq != r.mappingSeq || r.Iprep == nil {
			return
		}
		if choices := r.pendingNow().choices(r.Iprep.Columns); len(choices) > 0 {
			r.prepare(ctx, wire.Prepare{Columns: choices}, t("Mapping the columns"))
		}
	})
}

func (r *importRead) mappingFileChosen(ctx app.Context, e app.Event) {
	input := ctx.JSSrc()
	files := input.Get("files")
	if !files.Truthy() || files.Length() == 0 {
		return
	}
	file := files.Index(0)
	name := file.Get("name").String()
	input.Set("value", "")
	readText(file, func(text, failure string) {
		r.ctx.Dispatch(func(ctx app.Context) {
			if failure != "" {
				r.IonFail(ctx, tf("%s: %s", name, failure))
				return
			}
			r.prepare(ctx, wire.Prepare{SavedMapping: text}, tf("Applying the mapping %s", name))
		})
	})
}

// matters reports whether a setting changes how the file reads.
func (r *importRead) matters(setting string) bool {
	for _, s := range r.Iprep.SettingsMatter {
		if s == setting {
			return true
		}
	}
	return false
}

func (r *importRead) renderSettings() app.UI {
	pr := r.Iprep
	csv := pr.Format == wire.FormatCSV
	if len(pr.SettingsMatter) == 0 && !csv {
		return nil
	}
	s := pr.Settings
	// Every setting the operator touches is their choice, recorded as
	// such even where it equals what was detected.
	set := func(chosen []string, change func(*wire.Settings)) app.EventHandler {
		return func(ctx app.Context, e app.Event) {
			next := r.Iprep.Settings
			change(&next)
			r.prepare(ctx, wire.Prepare{Settings: &next, Chosen: chosen}, t("Reading with the new settings"))
		}
	}
	amounts, separators := []string{wire.SettingAmounts}, []string{wire.SettingDecimal, wire.SettingGroup}
	value := func(ctx app.Context) string { return ctx.JSSrc().Get("value").String() }
	return app.FieldSet().Class("settings").Body(
		app.Legend().Text(t("How values are read")),
		app.If(csv, func() app.UI {
			return app.Div().Class("settings-row").Body(
				selectField("encoding", t("Text encoding"), pr.Encoding, [][2]string{
					{"utf-8", "UTF-8"}, {"windows-1252", t("Windows-1252 (Western European)")}, {"utf-16le", "UTF-16 LE"}, {"utf-16be", "UTF-16 BE"},
				}, func(ctx app.Context, e app.Event) {
					r.prepare(ctx, wire.Prepare{Encoding: value(ctx)}, t("Reading the file again"))
				}),
				selectField("delimiter", t("Delimiter"), pr.Delimiter, [][2]string{
					{",", t("Comma ,")}, {";", t("Semicolon ;")}, {"\t", t("Tab")}, {"|", t("Vertical bar |")},
				}, func(ctx app.Context, e app.Event) {
					r.prepare(ctx, wire.Prepare{Delimiter: value(ctx)}, t("Reading the file again"))
				}),
			)
		}),
		app.If(r.matters(wire.SettingAmounts), func() app.UI {
			return app.Div().Class("settings-row").Body(
				app.FieldSet().Class("radios").Body(
					app.Legend().Text(t("Amounts are written")),
					radio("amounts", "amounts-minor", wire.AmountsMinor, t("In minor units, as the API takes them (1050 is 10.50)"), s.Amounts != wire.AmountsMajor, set(amounts, func(s *wire.Settings) { s.Amounts = wire.AmountsMinor })),
					radio("amounts", "amounts-major", wire.AmountsMajor, t("In major units, as people write them (10.50)"), s.Amounts == wire.AmountsMajor, set(amounts, func(s *wire.Settings) { s.Amounts = wire.AmountsMajor })),
				),
				selectField("decimal", t("Decimal separator"), s.Decimal, [][2]string{
					{"", t("Not known: refuse amounts that read two ways")}, {".", decimalChoice(".", s.Group)}, {",", decimalChoice(",", s.Group)},
				}, func(ctx app.Context, e app.Event) {
					v := value(ctx)
					set(separators, func(s *wire.Settings) {
						s.Decimal = v
						if s.Group == v {
							s.Group = ""
						}
					})(ctx, e)
				}),
				selectField("group", t("Digit groups"), s.Group, [][2]string{
					{"", t("None")}, {",", t("Comma: 1,234")}, {".", t("Point: 1.234")}, {" ", t("Space: 1 234")}, {"'", t("Apostrophe: 1'234")},
				}, func(ctx app.Context, e app.Event) {
					v := value(ctx)
					set([]string{wire.SettingGroup}, func(s *wire.Settings) { s.Group = v })(ctx, e)
				}),
			)
		}),
		app.If(r.matters(wire.SettingCurrency), func() app.UI {
			return app.Div().Class("field", "field-narrow").Body(
				app.Label().For("currency").Text(t("Currency of the amounts")),
				app.Input().ID("currency").Class("input").MaxLength(3).Size(5).Value(s.Currency).
					OnChange(func(ctx app.Context, e app.Event) {
						v := strings.ToUpper(strings.TrimSpace(value(ctx)))
						set([]string{wire.SettingCurrency}, func(s *wire.Settings) { s.Currency = v })(ctx, e)
					}),
			)
		}),
		app.If(r.matters(wire.SettingDates), func() app.UI {
			return selectField("date-order", t("Dates such as 03/04/2025 are"), s.DateOrder, [][2]string{
				{"", t("Not known: refuse dates that read two ways")}, {"DMY", t("Day, month, year")}, {"MDY", t("Month, day, year")}, {"YMD", t("Year, month, day")},
			}, func(ctx app.Context, e app.Event) {
				v := value(ctx)
				set([]string{wire.SettingDates}, func(s *wire.Settings) { s.DateOrder = v })(ctx, e)
			})
		}),
		app.If(r.matters(wire.SettingTimeZone), func() app.UI { return r.renderTimeZone("time-zone") }),
		app.If(len(pr.Examples) > 0, r.renderExamples),
	)
}

func (r *importRead) renderExamples() app.UI {
	ex := r.Iprep.Examples
	marked := disagreeing(r.Iprep.Reading)
	caption := t("Values of the file, read with these settings")
	if len(marked) > 0 {
		caption = t("Values of the file, read with these settings: the cells that disagree first")
	}
	return app.Div().Class("table-scroll").Body(
		app.Table().ID("examples").Class("examples").Body(
			app.Caption().Text(caption),
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text(t("Cell")),
				app.Th().Scope("col").Text(t("Field")),
				app.Th().Scope("col").Text(t("In the file")),
				app.Th().Scope("col").Text(t("Read as")),
			)),
			app.TBody().Body(app.Range(ex).Slice(func(i int) app.UI {
				e := ex[i]
				read := app.Td().Text(e.Parsed)
				if e.Error != "" {
					read = app.Td().Class("cell-error").Text(tf("Error: %s", e.Error))
				}
				place := fmt.Sprintf("%s%d", e.Column, e.Row)
				if marked[place] {
					return app.Tr().Class("example-disagrees").Body(
						app.Th().Scope("row").Body(app.Text(place+" "), app.Span().Class("badge-check").Text(t("disagrees"))),
						app.Td().Text(e.Field),
						app.Td().Class("raw").Text(e.Raw),
						read,
					)
				}
				return app.Tr().Body(
					app.Th().Scope("row").Text(place),
					app.Td().Text(e.Field),
					app.Td().Class("raw").Text(e.Raw),
					read,
				)
			})),
		),
	)
}

// selectField is a labelled select of [value, label] options.
func selectField(id, label, current string, options [][2]string, onChange app.EventHandler) app.UI {
	return app.Div().Class("field").Body(
		app.Label().For(id).Text(label),
		app.Select().ID(id).Class("select").OnChange(onChange).Body(
			app.Range(options).Slice(func(i int) app.UI {
				return option(options[i][0], options[i][1], options[i][0] == current)
			}),
		),
	)
}

// radio is a labelled radio button.
func radio(name, id, value, label string, checked bool, onChange app.EventHandler) app.UI {
	in := app.Input().Type("radio").Name(name).ID(id).Value(value).OnChange(onChange)
	if checked {
		in = in.Checked(true)
	}
	return app.Div().Class("check").Body(in, app.Label().For(id).Text(label))
}

// breakAfterDots writes a header such as "destinationAmount.currency"
// with a place to break after each dot, so that a narrow column wraps it
// between its parts rather than pushing the field's menu out of sight.
func breakAfterDots(s string) []app.UI {
	parts := strings.SplitAfter(s, ".")
	out := make([]app.UI, 0, 2*len(parts))
	for i, part := range parts {
		if i > 0 {
			out = append(out, app.Wbr())
		}
		out = append(out, app.Text(part))
	}
	return out
}

// renderTimeZone is the choice of the time zone of the open file's
// dates, in the settings of "Check how it is read" and in its question.
func (r *importRead) renderTimeZone(id string) app.UI {
	return app.Div().Class("field").Body(
		app.Label().For(id).Text(t("Time zone of the dates")),
		zoneSelect(id, r.Iprep.Settings.TimeZone, t("Not chosen: the dates are errors"), r.timeZoneSelected).Aria("describedby", id+"-hint"),
		app.Span().ID(id+"-hint").Class("hint").Text(t("A date alone is 00:00 of that day in this zone. Settings chooses the zone for every file.")),
	)
}

// timeZoneSelected reads the file's dates in the zone chosen; the focus
// goes to the settings' menu, which stays when the question goes.
func (r *importRead) timeZoneSelected(ctx app.Context, e app.Event) {
	if r.Iprep == nil {
		return
	}
	next := r.Iprep.Settings
	next.TimeZone = chosenZone(ctx)
	r.IonPrepare(ctx, wire.Prepare{Settings: &next, Chosen: []string{wire.SettingTimeZone}}, t("Reading with the new settings"), "time-zone")
}
