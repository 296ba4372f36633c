package ingest

import (
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
)

// How the cells of a template's column are typed (TemplateColumn.Reads),
// which its mark (TemplateMark) records so that the workbook reads back
// exactly as it was filled in.
const (
	// ReadsText is text as typed: ids, names, references.
	ReadsText = "text"
	// ReadsAmount is a sum of money in major units, with its currency's
	// decimals (10.50), in a number cell.
	ReadsAmount = "amount"
	// ReadsMoment is a date, or a date and time, in a date cell, read in
	// the time zone the operator chose (or the template names).
	ReadsMoment = "moment"
	// ReadsDate is a calendar date in a date cell.
	ReadsDate = "date"
	// ReadsChoice is one of the field's choices, in the operator's words
	// of any of the console's languages, from a dropdown.
	ReadsChoice = "choice"
	// ReadsYesNo is yes or no, from a dropdown.
	ReadsYesNo = "yes-no"
	// ReadsList is several values separated by commas.
	ReadsList = "list"
	// ReadsNumber is a number other than an amount.
	ReadsNumber = "number"
)

// Reads says how the column's cells are typed: one of the Reads…
// constants.
func (c TemplateColumn) Reads() string {
	f := c.Field
	switch {
	case c.DateParts || f.Format == "date":
		return ReadsDate
	case f.Timestamp:
		return ReadsMoment
	case isAmount(f):
		return ReadsAmount
	case f.Type == "array":
		return ReadsList
	case len(f.Enum) > 0:
		return ReadsChoice
	case f.Type == "boolean":
		return ReadsYesNo
	case f.Type == "integer" || f.Type == "number":
		return ReadsNumber
	}
	return ReadsText
}

// templateHeaderWords name the columns whose field's title alone would be
// ambiguous in a template (two "Instrument id" columns in a transfer) or
// too vague (a spend limit's "Amount").
var templateHeaderWords = map[string]string{
	"source.id":        lang.Mark("Source id"),
	"source.type":      lang.Mark("Source type"),
	"destination.id":   lang.Mark("Destination id"),
	"destination.type": lang.Mark("Destination type"),
	"dateOfBirth":      lang.Mark("Date of birth"),

	"scheduledTimestamp": lang.Mark("Execution date"),

	"spendLimit[0].value.amount":   lang.Mark("Spend limit"),
	"spendLimit[0].value.currency": lang.Mark("Spend limit currency"),
	"spendLimit[0].interval":       lang.Mark("Spend limit interval"),
	"spendLimit[0].startTimestamp": lang.Mark("Spend limit start"),

	"destinationBeneficiary.bankAccountDetails.iban":               lang.Mark("Bank account details: IBAN"),
	"destinationBeneficiary.bankAccountDetails.bankIdentifierCode": lang.Mark("Bank account details: BIC"),
	"destinationBeneficiary.bankAccountDetails.accountNumber":      lang.Mark("Bank account details: account number"),
	"destinationBeneficiary.bankAccountDetails.sortCode":           lang.Mark("Bank account details: sort code"),
	"destinationBeneficiary.bankAccountDetails.secondaryReference": lang.Mark("Bank account details: secondary reference"),
}

// TemplateWords returns the headers of a template's data sheet in l: each
// column's name in the operator's words ("Betrag", "Währung"), with " *"
// when it is required. Two columns never share a header: one that would
// is followed by its field's path.
func TemplateWords(cols []TemplateColumn, l lang.Tag) []string {
	out := make([]string, len(cols))
	seen := make(map[string]int)
	for i, c := range cols {
		w, ok := templateHeaderWords[c.Path]
		if !ok {
			w = c.Field.Title
		}
		if w == "" {
			w = c.Path
		}
		out[i] = l.T(w)
		seen[strings.ToLower(out[i])]++
	}
	for i, c := range cols {
		if seen[strings.ToLower(out[i])] > 1 {
			out[i] += " (" + c.Path + ")"
		}
		if c.Required {
			out[i] += " *"
		}
	}
	return out
}

// addTemplateWords maps the headers of the kind's template, in each of
// the console's languages, to their fields, where no other name of a
// field already takes the header and its meaning points to no other
// field: rows copied out of a template into a workbook of the operator's
// own, without its mark, still map by themselves, and a word that could
// mean several fields ("Konto") stays the operator's choice. A header
// two columns of the template share in some language maps to neither.
func (m *matcher) addTemplateWords() {
	cols := TemplateColumns(m.cat.kind, m.cat.fields)
	type word struct{ header, path string }
	words := make(map[string]word)
	for _, l := range lang.All {
		for i, w := range TemplateWords(cols, l) {
			n := normalizeHeader(w)
			if got, ok := words[n]; ok && got.path != cols[i].Path {
				words[n] = word{}
				continue
			}
			words[n] = word{w, cols[i].Path}
		}
	}
	for n, w := range words {
		_, exact := m.exact[n]
		_, alias := m.alias[n]
		if w.path == "" || exact || alias || m.unsure[n] {
			continue
		}
		if ps := m.byMeaning(w.header, false); len(ps) > 1 || len(ps) == 1 && ps[0] != w.path {
			continue
		}
		m.alias[n] = w.path
	}
}
