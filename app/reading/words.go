package reading

import (
	"fmt"
	"strings"
)

// A Statement is one decision said in words, for the review's header,
// the confirmation before a submission and the command line's report.
type Statement struct {
	// Name is the decision's name in Names.
	Name string `json:"name"`
	Text string `json:"text"`
	// Marked is set when the reading is not the default one (amounts in
	// major units) or is undecided: the operator should look twice.
	Marked    bool `json:"marked,omitempty"`
	Undecided bool `json:"undecided,omitempty"`
}

// Describe says in words how the file is read. currency is the currency
// the examples are written in ("" for EUR). Decisions that do not apply
// are left out.
func Describe(r Reading, currency string) []Statement {
	if currency == "" {
		currency = "EUR"
	}
	var out []Statement
	add := func(name string, d Decision, text string, marked bool) {
		if d.Undecided {
			text += " " + undecidedNote(d)
		} else if d.How == Chosen {
			text = strings.TrimSuffix(text, ".") + ", as you chose."
		}
		out = append(out, Statement{Name: name, Text: text, Marked: marked || d.Undecided, Undecided: d.Undecided})
	}
	if r.Units.How != "" {
		switch {
		case r.Units.Undecided:
			add("units", r.Units, fmt.Sprintf("amounts in minor units: 1050 is %s 10.50.", currency), false)
		case r.Units.Value == Major:
			add("units", r.Units, fmt.Sprintf("amounts in MAJOR units: 10.50 is %s 10.50, not %s 0.10.", currency, currency), true)
		default:
			add("units", r.Units, fmt.Sprintf("amounts in minor units: 1050 is %s 10.50.", currency), false)
		}
	}
	if d := r.Decimal; d.How != "" && (d.Value != "" || d.Undecided) {
		switch d.Value {
		case ".":
			add("decimal", d, "decimal point: 1,234.56.", false)
		case ",":
			add("decimal", d, "decimal comma: 1.234,56.", false)
		default:
			add("decimal", d, "decimal separator not known: an amount such as 1,500 is an error at its cell.", false)
		}
	}
	if d := r.Group; d.Undecided {
		add("group", d, "digit groups not known.", false)
	}
	if d := r.DateOrder; d.How != "" && (d.Value != "" || d.Undecided) {
		switch d.Value {
		case "DMY":
			add("dateOrder", d, "dates day first: 03/04/2025 is 3 April 2025.", false)
		case "MDY":
			add("dateOrder", d, "dates month first: 03/04/2025 is 4 March 2025.", false)
		case "YMD":
			add("dateOrder", d, "dates year first: 2025/03/04 is 4 March 2025.", false)
		default:
			add("dateOrder", d, "date order not known: a date such as 03/04/2025 is an error at its cell.", false)
		}
	}
	if d := r.Encoding; d.How != "" && d.Value != "" {
		add("encoding", d, "text in "+strings.ToUpper(d.Value)+".", false)
	}
	if d := r.Delimiter; d.How != "" && d.Value != "" {
		add("delimiter", d, "values separated by "+DelimiterName(d.Value)+"s.", false)
	}
	if d := r.Sheet; d.How != "" && d.Value != "" {
		add("sheet", d, fmt.Sprintf("sheet %q.", d.Value), d.Undecided)
	}
	if d := r.HeaderRow; d.How != "" && d.Value != "" && d.Value != "0" {
		add("headerRow", d, "headers on row "+d.Value+".", false)
	}
	return out
}

// undecidedNote says why a decision is undecided, naming the first cells
// that disagree.
func undecidedNote(d Decision) string {
	var cells []string
	for _, c := range d.Evidence {
		if len(cells) == 3 {
			break
		}
		cells = append(cells, fmt.Sprintf("%s %q reads %s", c.Place(), c.Raw, c.Suggests))
	}
	note := "The file does not say: its cells disagree"
	if len(cells) > 0 {
		note += " (" + strings.Join(cells, "; ") + ")"
	}
	return note + "; choose how to read it."
}

// DelimiterName names a delimiter for people: "comma", "semicolon",
// "tab", "pipe".
func DelimiterName(d string) string {
	switch d {
	case ",":
		return "comma"
	case ";":
		return "semicolon"
	case "\t":
		return "tab"
	case "|":
		return "pipe"
	}
	return fmt.Sprintf("%q", d)
}
