package reading

import (
	"fmt"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
)

// A Statement is one decision said in words, for the review's header,
// the confirmation before a submission and the command line's report.
type Statement struct {
	// Name is the decision's name in Names, or "totals" for a total row.
	Name string `json:"name"`
	Text string `json:"text"`
	// Marked is set when the reading is not the default one (amounts in
	// major units) or is undecided, or a total row differs from the rows
	// above it: the operator should look twice.
	Marked    bool `json:"marked,omitempty"`
	Undecided bool `json:"undecided,omitempty"`
	// Note is the end of Text that says why an undecided reading is: the
	// cells that disagree.
	Note string `json:"note,omitempty"`
}

// Describe says in words, in w's language, how the file is read.
// currency is the currency the examples are written in ("" for EUR).
// Decisions that do not apply are left out.
func Describe(r Reading, currency string, w lang.Tag) []Statement {
	if currency == "" {
		currency = "EUR"
	}
	var out []Statement
	add := func(name string, d Decision, text string, marked bool) {
		text = w.T(text)
		note := ""
		if d.Undecided {
			note = undecidedNote(w, name, d)
			text += " " + note
		} else if d.How == Chosen {
			text = w.F("%s, as you chose.", strings.TrimSuffix(text, "."))
		} else if d.How == Declared {
			text = w.F("%s, as the template says.", strings.TrimSuffix(text, "."))
		}
		out = append(out, Statement{Name: name, Text: text, Marked: marked || d.Undecided, Undecided: d.Undecided, Note: note})
	}
	if r.Units.How != "" {
		switch {
		case r.Units.Undecided:
			add("units", r.Units, w.F("amounts in minor units: 1050 is %s 10.50.", currency), false)
		case r.Units.Value == Major:
			// Marked to look at twice, unless a template says so.
			add("units", r.Units, w.F("amounts in MAJOR units: %s is %s, not %s.", w.Localize("10.50"), w.Localize(currency+" 10.50"), w.Localize(currency+" 0.10")), r.Units.How != Declared)
		default:
			add("units", r.Units, w.F("amounts in minor units: 1050 is %s 10.50.", currency), false)
		}
	}
	if d := r.Decimal; d.How != "" && (d.Value != "" || d.Undecided) {
		switch d.Value {
		case ".":
			add("decimal", d, w.F("decimal point: %s.", amountExample(".", r.Group)), false)
		case ",":
			add("decimal", d, w.F("decimal comma: %s.", amountExample(",", r.Group)), false)
		default:
			add("decimal", d, lang.Mark("decimal separator not known: an amount such as 1,500 is an error at its cell."), false)
		}
	}
	if d := r.Group; d.Undecided {
		add("group", d, lang.Mark("digit groups not known."), false)
	}
	if d := r.DateOrder; d.How != "" && (d.Value != "" || d.Undecided) {
		switch d.Value {
		case "DMY":
			add("dateOrder", d, lang.Mark("dates day first: 03/04/2025 is 3 April 2025."), false)
		case "MDY":
			add("dateOrder", d, lang.Mark("dates month first: 03/04/2025 is 4 March 2025."), false)
		case "YMD":
			add("dateOrder", d, lang.Mark("dates year first: 2025/03/04 is 4 March 2025."), false)
		default:
			add("dateOrder", d, lang.Mark("date order not known: a date such as 03/04/2025 is an error at its cell."), false)
		}
	}
	if d := r.TimeZone; d.How != "" {
		out = append(out, zoneStatement(d, w))
	}
	if d := r.Encoding; d.How != "" && d.Value != "" {
		add("encoding", d, w.F("text in %s.", EncodingName(d.Value)), false)
	}
	if d := r.Delimiter; d.How != "" && d.Value != "" {
		add("delimiter", d, w.F("values separated by %s.", w.T(Delimiters(d.Value))), false)
	}
	if d := r.Sheet; d.How != "" && d.Value != "" {
		add("sheet", d, w.F("sheet %q.", d.Value), d.Undecided)
	}
	if d := r.HeaderRow; d.How != "" && d.Value != "" && d.Value != "0" {
		add("headerRow", d, w.F("headers on row %s.", d.Value), false)
	}
	for _, t := range r.Totals {
		out = append(out, totalStatement(t, w))
	}
	return out
}

// zoneStatement says in which time zone dates and times are read, with
// a date of the file read in it; undecided, that the zone is not chosen
// and what that does to the file's dates.
func zoneStatement(d Decision, w lang.Tag) Statement {
	var first *Cell
	if len(d.Evidence) > 0 {
		first = &d.Evidence[0]
	}
	if d.Undecided || d.Value == "" {
		text := w.T("time zone not chosen: the file's dates are errors at their cells until you choose the time zone they are in.")
		if first != nil {
			text = w.F("time zone not chosen: a date such as %q (%s) is an error at its cell until you choose the time zone the file's dates are in.", first.Raw, first.Place(w))
		}
		return Statement{Name: "timeZone", Text: text, Marked: true, Undecided: true}
	}
	text := w.F("dates and times in %s.", d.Value)
	if first != nil && first.Why != "" {
		text = w.F("dates and times in %s: %q is %s.", d.Value, first.Raw, first.Why)
	}
	if d.How == Chosen {
		text = w.F("%s, as you chose.", strings.TrimSuffix(text, "."))
	} else if d.How == Declared {
		text = w.F("%s, as the template says.", strings.TrimSuffix(text, "."))
	}
	return Statement{Name: "timeZone", Text: text}
}

// undecidedNote says why a decision is undecided, naming the first cells
// that disagree.
func undecidedNote(w lang.Tag, name string, d Decision) string {
	var cells []string
	for _, c := range d.Evidence {
		if len(cells) == 3 {
			break
		}
		cells = append(cells, w.F("%s %q reads %s", c.Place(w), c.Raw, Suggestion(name, c.Suggests, w)))
	}
	if len(cells) > 0 {
		return w.F("The file does not say: its cells disagree (%s); choose how to read it.", w.Clauses(cells...))
	}
	return w.T("The file does not say: its cells disagree; choose how to read it.")
}

// Delimiters names a delimiter in the plural, in English, marked for the
// catalogs: "commas"; T of it is the operator's language.
func Delimiters(d string) string {
	switch d {
	case ",":
		return lang.Mark("commas")
	case ";":
		return lang.Mark("semicolons")
	case "\t":
		return lang.Mark("tabs")
	case "|":
		return lang.Mark("pipes")
	}
	return fmt.Sprintf("%q", d)
}

// DelimiterName names a delimiter for people: "comma", "semicolon",
// "tab", "pipe", marked for the catalogs.
func DelimiterName(d string) string {
	switch d {
	case ",":
		return lang.Mark("comma")
	case ";":
		return lang.Mark("semicolon")
	case "\t":
		return lang.Mark("tab")
	case "|":
		return lang.Mark("pipe")
	}
	return fmt.Sprintf("%q", d)
}

// Suggestion says in w what a cell's reading means, a value of the
// decision name: "minor units (1050 is 10.50)", "day first", "commas".
func Suggestion(name, v string, w lang.Tag) string {
	switch name {
	case "units":
		switch v {
		case Minor:
			return w.T("minor units (1050 is 10.50)")
		case Major:
			return w.T("major units (10.50 as written)")
		}
	case "decimal", "group":
		mark, rest, _ := strings.Cut(v, " ")
		switch mark {
		case "decimal":
			return w.F("decimal %s", MarkName(rest, w))
		case "groups":
			return w.F("%s groups digits", MarkName(rest, w))
		}
		if name == "decimal" {
			return w.F("decimal %s", MarkName(v, w))
		}
		return w.F("%s groups digits", MarkName(v, w))
	case "dateOrder":
		switch v {
		case "DMY":
			return w.T("day first")
		case "MDY":
			return w.T("month first")
		case "YMD":
			return w.T("year first")
		}
	case "encoding":
		return EncodingName(v)
	case "delimiter":
		return w.T(Delimiters(v))
	}
	return v
}

// MarkName names a separator mark in w: "point", "comma".
func MarkName(m string, w lang.Tag) string {
	switch m {
	case ".":
		return w.T("point")
	case ",":
		return w.T("comma")
	case " ":
		return w.T("space")
	case "'":
		return w.T("apostrophe")
	}
	return w.Quote(m)
}

// amountExample writes 1234.56 as the file writes its amounts: with the
// decimal mark and its digit groups (g), once decided.
func amountExample(decimal string, g Decision) string {
	if g.Undecided {
		return AmountExample(decimal, "")
	}
	return AmountExample(decimal, g.Value)
}

// AmountExample writes 1234.56 with a decimal mark and a digit-group
// separator as a file does: 1 234,56 for a file grouped with spaces.
// Without a group ("" or the mark itself), the one that goes with the
// mark: 1,234.56 and 1.234,56.
func AmountExample(decimal, group string) string {
	if group == "" || group == decimal {
		group = map[string]string{".": ",", ",": "."}[decimal]
	}
	if group == " " {
		group = "\u00a0" // any space the file has, kept on one line
	}
	return "1" + group + "234" + decimal + "56"
}

// EncodingName names an encoding as people write it: UTF-8, UTF-16LE,
// Windows-1252 (not WINDOWS-1252).
func EncodingName(v string) string {
	if rest, ok := strings.CutPrefix(strings.ToLower(v), "windows-"); ok {
		return "Windows-" + rest
	}
	return strings.ToUpper(v)
}
