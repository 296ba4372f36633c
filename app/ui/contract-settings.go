package ui

import (
	"strings"

	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// contractView is the Settings page's "API contract" section: which
// contract the worker validates against, loading a newer one from an
// OpenAPI file, going back to the built-in one, and the strict setting.
// The worker holds the contract; the page shows what it answers.
type contractView struct {
	state *wire.ContractState
	// busy says what is under way; failure why the last load failed (the
	// contract in use is then unchanged).
	busy    string
	failure string
	strict  bool
}

// contractMount asks the worker what is in use, sending the strict
// setting remembered in this browser.
func (p *settingsPage) contractMount() {
	p.contract.strict = strictSetting()
	p.sendContract(wire.SetContract{Strict: p.contract.strict}, "")
}

// sendContract runs JobContract and shows its answer; announce, when set,
// is said once it is done.
func (p *settingsPage) sendContract(req wire.SetContract, announce string) {
	cv := &p.contract
	req.Lang = string(consoleLang)
	runJob(p.page, wire.JobContract, req, nil, func(st wire.ContractState, _ app.Value, err error) {
		cv.busy = ""
		if err != nil {
			cv.failure = errorText(err)
			p.announcement = cv.failure
			return
		}
		cv.state, cv.strict = &st, st.Strict
		if announce != "" {
			p.announcement = announce
		}
	})
}

func (p *settingsPage) contractSection() app.UI {
	cv := &p.contract
	return app.Section().ID("contract").Class("settings-group").Aria("labelledby", "contract-title").Body(
		app.H2().ID("contract-title").Text(t("API contract")),
		app.P().Class("note").Text(t("The console checks files against the API contract it was built with. When the API publishes a newer OpenAPI file, load it here: it is read in this browser, kept for the next visits, and used for every file opened from then on.")),
		app.P().ID("contract-in-use").Role("status").Text(contractInUse(cv.state, cv.failure != "")),
		app.If(cv.state != nil && cv.state.StoreError != "", func() app.UI {
			return app.P().Class("warning-text").Text(cv.state.StoreError)
		}),
		app.Div().Class("field").Body(
			app.Label().For("contract-file").Text(t("Load an OpenAPI file…")),
			app.Span().ID("contract-file-hint").Class("hint").Text(t("YAML or JSON, OpenAPI 3.x. The console looks for its bulk operations in it.")),
			app.Input().ID("contract-file").Type("file").Accept(".yml,.yaml,.json").
				Aria("describedby", "contract-file-hint").Disabled(cv.busy != "" || cv.state == nil).OnChange(p.contractFileChosen),
		),
		app.If(cv.busy != "", func() app.UI { return app.P().ID("contract-busy").Role("status").Text(cv.busy) }),
		app.If(cv.failure != "", func() app.UI {
			return app.Div().ID("contract-failure").Class("failure").Role("alert").Body(
				app.P().Class("failure-title").Text(t("The file was not loaded; the contract in use is unchanged.")),
				app.P().Text(cv.failure),
			)
		}),
		app.Div().Class("actions").Body(
			app.Button().ID("contract-builtin").Type("button").Class("button", "button-quiet").
				Text(t("Use the built-in contract")).Disabled(cv.state == nil || cv.state.Builtin || cv.busy != "").OnClick(p.useBuiltinContract),
		),
		p.strictChoice(),
		app.If(cv.state != nil && !cv.state.Builtin, func() app.UI { return contractDifferences(cv.state) }),
	)
}

// contractInUse names the contract in use; failed says the engine's
// last answer was an error.
func contractInUse(st *wire.ContractState, failed bool) string {
	switch {
	case st == nil && failed:
		return t("The validation engine could not say which contract is in use.")
	case st == nil:
		return t("Asking the validation engine which contract is in use…")
	case st.Builtin:
		return t("In use: the built-in contract.")
	}
	name := st.Name
	if st.Title != "" {
		name += " — " + st.Title
	}
	if st.Version != "" {
		return tf("In use: %s, version %s.", name, st.Version)
	}
	return tf("In use: %s.", name)
}

func (p *settingsPage) strictChoice() app.UI {
	box := app.Input().Type("checkbox").ID("contract-strict").Aria("describedby", "contract-strict-hint").OnChange(func(ctx app.Context, e app.Event) {
		on := ctx.JSSrc().Get("checked").Bool()
		p.contract.strict = on
		setStrictSetting(on)
		say := t("The API documentation's rules are warnings.")
		if on {
			say = t("The API documentation's rules are errors.")
		}
		p.sendContract(wire.SetContract{Strict: on}, say)
	})
	if p.contract.strict {
		box = box.Checked(true)
	}
	return app.Div().Class("check", "choice").Body(
		box,
		app.Label().For("contract-strict").Body(
			app.Span().Text(t("Treat the API documentation's rules as errors")),
			app.Span().ID("contract-strict-hint").Class("hint").Text(t("Rules the documentation states but the contract does not enforce (a SEPA wire's reference, currency codes from ISO 4217) are warnings by default; on, an element that breaks one cannot be submitted. Kept in this browser.")),
		),
	)
}

func (p *settingsPage) contractFileChosen(ctx app.Context, e app.Event) {
	files := ctx.JSSrc().Get("files")
	if !files.Truthy() || files.Length() == 0 || p.contract.state == nil {
		return
	}
	file := files.Index(0)
	cv := &p.contract
	cv.busy, cv.failure = tf("Reading %s…", file.Get("name").String()), ""
	readContractFile(p.page, file, cv.state.Targets, func(src *wire.ContractSource, err error) {
		if err != nil {
			cv.busy, cv.failure = "", errorText(err)
			p.announcement = tf("The file was not loaded: %s", cv.failure)
			return
		}
		cv.busy = tf("Checking the schemas of %s…", src.Name)
		p.sendContract(wire.SetContract{Strict: cv.strict, Source: src}, tf("The contract %s is in use.", src.Name))
	})
	// The same file can be chosen again once changed on disk.
	ctx.JSSrc().Set("value", "")
}

func (p *settingsPage) useBuiltinContract(ctx app.Context, e app.Event) {
	p.contract.busy, p.contract.failure = t("Going back to the built-in contract…"), ""
	p.sendContract(wire.SetContract{Strict: p.contract.strict, Builtin: true}, t("The built-in contract is in use."))
}

// contractDifferences lists what the contract in use changes against the
// built-in one, kind by kind, then the kinds it lacks and the reader's
// notes.
func contractDifferences(st *wire.ContractState) app.UI {
	var changed, missing []app.UI
	for _, k := range st.Kinds {
		if k.Missing {
			missing = append(missing, app.Li().Text(k.Title+" ("+k.Kind+")"))
			continue
		}
		if len(k.Changes) == 0 && len(k.Skipped) == 0 {
			continue
		}
		var items []app.UI
		for _, c := range k.Changes {
			field := c.Field
			if field == "" {
				field = t("the bulk")
			}
			items = append(items, app.Li().Body(app.Code().Text(field), app.Text(": "+c.What)))
		}
		for _, s := range k.Skipped {
			items = append(items, app.Li().Class("hint").Text(tf("A correction of this console no longer applies: %s", s)))
		}
		changed = append(changed, app.Div().Class("contract-kind").DataSet("kind", k.Kind).Body(
			app.H3().Text(k.Title),
			app.Ul().Body(items...),
		))
	}
	var notes []app.UI
	for _, n := range st.Notes {
		notes = append(notes, app.Li().Body(
			app.Strong().Text(capitalize(n.Action)+": "),
			app.Text(n.Text+" "),
			app.Span().Class("contract-place").Text(tf("(%s, at %s)", n.Kind, readablePointer(n.Place))),
		))
	}
	return app.Div().ID("contract-differences").Body(
		app.H3().Text(t("What differs from the built-in contract")),
		app.If(len(changed) == 0, func() app.UI { return app.P().Text(t("No field differs.")) }),
		app.Div().Body(changed...),
		app.If(len(missing) > 0, func() app.UI {
			return app.Div().ID("contract-missing").Body(
				app.P().Class("warning-text").Text(t("The file has no operation for these bulks: their files cannot be checked while it is in use.")),
				app.Ul().Body(missing...),
			)
		}),
		app.If(len(notes) > 0, func() app.UI {
			return app.Details().ID("contract-notes").Body(
				app.Summary().Text(tf("%s of the reader: keywords translated, dropped or not understood", plural(len(notes), "note", "notes"))),
				app.Ul().Body(notes...),
			)
		}),
	)
}

// readablePointer writes a JSON pointer into the file as its steps, so
// that a path such as /bulks/transfers reads as itself, not "~1bulks~1…".
func readablePointer(p string) string {
	steps := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, s := range steps {
		steps[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
	}
	return strings.Join(steps, " › ")
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
