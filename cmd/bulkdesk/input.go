package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/termsafe"
	"github.com/bulkdesk/bulkdesk/schema"
)

// inputFlags say how to read an operator's file; check and submit share
// them, so that a file submits exactly as it checks.
type inputFlags struct {
	sheet    string
	mapping  string
	settings ingest.Settings
	override map[string]bool // settings given on the command line
	read     ingest.Options
	// limits are the highest amounts expected per currency (-max-amount).
	limits amountLimitsFlag
	// set gives fields the file has no column for a value for every row
	// (-set).
	set setValuesFlag
	// contract is the contract the file is checked against.
	contract contractFlags
	// onDemand leaves a table's elements unbuilt (checked.elements nil):
	// the caller builds them part by part with checked.elementRange, so
	// that they are never all in memory at once, which for 100,000 rows
	// takes several times what the table and its report do.
	onDemand bool
}

// amountLimitsFlag is -max-amount CUR:VALUE, repeatable: one limit per
// currency, in major units. The values are read once -lang is known
// (parse): in the plain form ("EUR:10000.50"), or as -lang's language
// writes numbers ("EUR:10.000,50" with -lang de).
type amountLimitsFlag struct {
	texts  []string
	limits ingest.AmountLimits
}

func (l *amountLimitsFlag) String() string {
	if l == nil {
		return ""
	}
	return strings.Join(l.texts, ",")
}

func (l *amountLimitsFlag) Set(s string) error {
	l.texts = append(l.texts, s)
	return nil
}

// parse reads the limits given as sep writes numbers.
func (l *amountLimitsFlag) parse(sep money.Separators) error {
	l.limits = nil
	for _, s := range l.texts {
		cur, minor, err := ingest.ParseAmountLimit(s, sep)
		if err != nil {
			return lang.Errorf("invalid value %q for flag -max-amount: %s", s, err)
		}
		if l.limits == nil {
			l.limits = make(ingest.AmountLimits)
		}
		if old, dup := l.limits[cur]; dup && old != minor {
			return lang.Errorf("invalid value %q for flag -max-amount: %s already has a limit", s, cur)
		}
		l.limits[cur] = minor
	}
	return nil
}

func (in *inputFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&in.sheet, "sheet", "", "the sheet of a workbook to read (default: the mapping file's, else the sheet whose headers best fit the kind)")
	fs.StringVar(&in.mapping, "mapping", "", "a mapping file (JSON) saying which column fills which field, and how to read the file: sheet, header row, settings, encoding, delimiter")
	fs.StringVar(&in.settings.Amounts, "amounts", "", "amounts are written in minor units (1050 = 10.50) or major units (10.50): minor or major (default: detected)")
	fs.StringVar(&in.settings.Decimal, "decimal", "", `decimal separator of amounts written as text: "." or "," (default: detected)`)
	fs.StringVar(&in.settings.Group, "group", "", `digit-group separator of amounts: ",", ".", " ", "'" or "none" (default: detected)`)
	fs.StringVar(&in.settings.DateOrder, "dates", "", "order of text dates such as 03/04/2025: DMY, MDY or YMD (default: detected)")
	fs.StringVar(&in.settings.Currency, "currency", "", "currency of amounts whose row gives none (card spend rules), to read major units")
	fs.StringVar(&in.settings.TimeZone, "time-zone", "", "time zone of the dates and times of timestamp fields (scheduledTimestamp), an IANA name such as Europe/Berlin: a date alone is 00:00 there (never guessed: without it, such a date is an error)")
	fs.StringVar(&in.read.Delimiter, "delimiter", "", `delimiter of a CSV file: ",", ";", "tab" or "|" (default: detected)`)
	fs.Var(&in.set, "set", "give a field the file has no column for one value for every row, read as a cell of that field: FIELD=VALUE, FIELD its path, such as profileId=110321 or source.type=managed_accounts (repeatable; wins over the mapping file's value)")
	fs.Var(&in.limits, "max-amount", "warn about amounts above this limit, in major units: CUR:VALUE such as EUR:10000, or as -lang writes numbers (EUR:10.000,00 with -lang de; repeatable, one per currency)")
	fs.StringVar(&in.read.Encoding, "encoding", "", "encoding of a CSV file: utf-8, utf-16le, utf-16be or windows-1252 (default: detected)")
	in.contract.register(fs)
}

// parsed records which settings the command line gave, once fs is parsed,
// and checks them.
func (in *inputFlags) parsed(fs *flag.FlagSet) error {
	in.override = make(map[string]bool)
	fs.Visit(func(f *flag.Flag) { in.override[f.Name] = true })
	if in.settings.Group == "none" {
		in.settings.Group = ""
	}
	if err := in.limits.parse(in.contract.lang.tag.Separators()); err != nil {
		return err
	}
	return in.settings.Check()
}

// A checked file is the outcome of checking one file.
type checked struct {
	report *schema.Report
	// elements are the request's elements, count of them; nil for a
	// table read with inputFlags.onDemand, whose elements build makes.
	elements []any
	count    int
	build    func(lo, hi int) []any
	// source describes how a table was read; nil for request bodies.
	source *sourceInfo
	// reading holds the decisions taken to read a table, and currency
	// the currency its words give examples in; nil for request bodies.
	reading  *reading.Reading
	currency string
	// lang is the language the reading is told in, as -lang chose.
	lang lang.Tag
	// mapping is the mapping file of a table, as -save-mapping writes it.
	mapping ingest.Mapping
	// origin locates element i in a table: its sheet and row; nil for
	// request bodies.
	origin func(i int) (sheet string, row int)
}

// sourceInfo is how a spreadsheet or CSV file was read, for the reports.
type sourceInfo struct {
	File      string                 `json:"file"`
	Format    ingest.Format          `json:"format"`
	Sheet     string                 `json:"sheet,omitempty"`
	Encoding  string                 `json:"encoding,omitempty"`
	Delimiter string                 `json:"delimiter,omitempty"`
	HeaderRow int                    `json:"headerRow"`
	Settings  ingest.Settings        `json:"settings"`
	Columns   []ingest.ColumnMapping `json:"columns"`
	// Values are the values set for every row, by field (-set and the
	// mapping file's).
	Values map[string]string `json:"values,omitempty"`
}

// elementRange returns elements lo to hi (excluded), building them when
// they were left unbuilt.
func (c *checked) elementRange(lo, hi int) []any {
	if c.elements != nil || c.build == nil {
		return c.elements[lo:hi]
	}
	return c.build(lo, hi)
}

// valid reports whether the check passes: no errors, counting a request
// that is only too large as valid when it is split.
func (c *checked) valid(split bool) bool {
	for _, p := range c.report.Problems {
		if p.Severity == schema.Error && !(split && p.Code == schema.TooManyElements) {
			return false
		}
	}
	return true
}

// readBulkFile reads the bytes of an operator's file as a request of kind k:
// a JSON request body as it is, a workbook, CSV or array of JSON objects
// through the ingest package, with the mapping and settings of in. Notes
// for the operator go to stderr, prefixed with the command's name.
//
// A mapping file says how to read the file as well as which column fills
// which field: its sheet, encoding, delimiter, header row and settings
// are the operator's choices, each unless a flag says otherwise.
func readBulkFile(in *inputFlags, k *schema.Kind, path string, data []byte, command string, stderr io.Writer) (*checked, error) {
	var saved *ingest.Mapping
	if in.mapping != "" {
		data, err := os.ReadFile(in.mapping)
		if err != nil {
			return nil, err
		}
		m, err := ingest.UnmarshalMapping(data)
		if err != nil {
			return nil, lang.Errorf("%s: %s", in.mapping, err)
		}
		saved = &m
	}
	opts := in.read
	if saved != nil {
		if opts.Encoding == "" {
			opts.Encoding = saved.Encoding
		}
		if opts.Delimiter == "" {
			opts.Delimiter = saved.Delimiter
		}
	}
	opts.Lang = in.contract.lang.tag
	f, err := ingest.Open(path, data, opts)
	if err != nil {
		var se *schema.SyntaxError
		if errors.As(err, &se) {
			return nil, lang.Errorf("%s: not a JSON request body: %s", path, se)
		}
		return nil, err
	}
	v, err := in.contract.validator(command, stderr)
	if err != nil {
		return nil, err
	}
	if doc, dups, ok := f.Request(); ok {
		if len(in.set.fields) > 0 {
			return nil, lang.Errorf("-set: %s is a JSON request body: its elements name their fields, it has no columns to add values to", path)
		}
		return checkRequestBody(v, k, doc, dups, in.limits.limits)
	}
	sheet := in.sheet
	var chosen *reading.Decision
	if sheet == "" && saved != nil && f.Format == ingest.XLSX {
		if saved.Sheet != "" && hasSheet(f, saved.Sheet) {
			sheet = saved.Sheet
		} else {
			// The sheet whose headers are the mapping's.
			name, d := f.ChooseSheetByMapping(k, v, *saved)
			sheet, chosen = name, &d
			if saved.Sheet != "" {
				termsafe.Fprintf(stderr, "bulkdesk %s: %s\n", command, in.contract.lang.tag.F("%s: the workbook has no sheet %q; sheet %q has the mapping's headers", in.mapping, saved.Sheet, name))
			}
		}
	}
	table, err := f.TableFor(context.Background(), sheet, k, v, nil)
	if err != nil {
		return nil, err
	}
	if chosen != nil {
		table.Reading.Sheet = *chosen
	}
	im := ingest.NewImport(table, k, v)
	if saved != nil {
		missing, err := im.UseSavedMapping(*saved)
		if err != nil {
			return nil, lang.Errorf("%s: %s", in.mapping, err)
		}
		if len(missing) > 0 {
			termsafe.Fprintf(stderr, "bulkdesk %s: %s\n", command, in.contract.lang.tag.F("%s: the file has no column %s", in.mapping, strings.Join(missing, ", ")))
		}
	}
	if err := in.set.apply(im); err != nil {
		return nil, err
	}
	if err := im.SetSettings(in.overrideSettings(im.Settings()), in.chosenSettings()...); err != nil {
		return nil, err
	}
	im.SetAmountLimits(in.limits.limits)
	res := im.Build(nil)
	m := im.Mapping()
	r := im.Reading()
	var elements []any
	if !in.onDemand {
		elements = res.Request()
	}
	return &checked{
		lang:     in.contract.lang.tag,
		report:   res.Report,
		elements: elements,
		count:    len(res.Elements),
		build: func(lo, hi int) []any {
			out := make([]any, hi-lo)
			for i := range out {
				out[i] = res.Value(lo + i)
			}
			return out
		},
		source: &sourceInfo{
			File: f.Name, Format: f.Format, Sheet: table.Sheet, Encoding: f.Encoding, Delimiter: f.Delimiter,
			HeaderRow: m.HeaderRow, Settings: im.Settings(), Columns: m.Columns, Values: m.Values,
		},
		reading:  &r,
		currency: im.Settings().Currency,
		mapping:  im.SavedMapping(),
		origin:   func(i int) (string, int) { return table.Sheet, res.Elements[i].Row },
	}, nil
}

func hasSheet(f *ingest.File, name string) bool {
	for _, s := range f.Sheets() {
		if s.Name == name {
			return true
		}
	}
	return false
}

// chosenSettings names the settings the command line gave, as
// Import.SetSettings takes them: a decimal separator given alone chooses
// the group separator with it.
func (cf *inputFlags) chosenSettings() []string {
	var out []string
	for _, name := range []string{"amounts", "decimal", "group", "dates", "currency"} {
		if cf.override[name] || name == "group" && cf.override["decimal"] {
			out = append(out, name)
		}
	}
	if cf.override["time-zone"] {
		out = append(out, "timeZone")
	}
	return out
}

// readingLines says in words how a file was read, one line per decision,
// undecided ones marked and naming the cells that disagree.
func readingLines(c *checked) []string {
	if c.reading == nil {
		return nil
	}
	var out []string
	for _, st := range reading.Describe(*c.reading, c.currency, c.lang) {
		prefix := c.lang.T("reading:")
		if st.Undecided {
			prefix = c.lang.T("reading (UNDECIDED):")
		}
		out = append(out, prefix+" "+st.Text)
	}
	return out
}

// overrideSettings applies the settings given on the command line over
// the detected (or mapping file's) ones.
func (cf *inputFlags) overrideSettings(s ingest.Settings) ingest.Settings {
	if cf.override["amounts"] {
		s.Amounts = cf.settings.Amounts
	}
	if cf.override["decimal"] {
		s.Decimal = cf.settings.Decimal
		if !cf.override["group"] {
			// The other usual mark becomes the group separator.
			s.Group = map[string]string{".": ",", ",": "."}[s.Decimal]
		}
	}
	if cf.override["group"] {
		s.Group = cf.settings.Group
	}
	if cf.override["dates"] {
		s.DateOrder = cf.settings.DateOrder
	}
	if cf.override["currency"] {
		s.Currency = cf.settings.Currency
	}
	if cf.override["time-zone"] {
		s.TimeZone = cf.settings.TimeZone
	}
	return s
}

// checkRequestBody checks the document ingest.Open decoded, rather than
// decoding the body a second time: a 100 MB body decodes to several
// hundred megabytes.
func checkRequestBody(v *schema.Validator, k *schema.Kind, doc any, dups []string, limits ingest.AmountLimits) (*checked, error) {
	report := v.CheckDocument(k, doc, dups)
	elements, _ := doc.([]any)
	if ws := ingest.RequestWarnings(v.Language(), k, v.Fields(k), elements, limits); len(ws) > 0 {
		report.Add(ws...)
		report.Sort()
	}
	return &checked{lang: v.Language(), report: report, elements: elements, count: len(elements)}, nil
}
