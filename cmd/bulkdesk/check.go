package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/schema"
)

// checkFlags are the settings of one "bulkdesk check".
type checkFlags struct {
	kind       *schema.Kind
	backOffice bool
	format     string
	sheet      string
	mapping    string
	settings   ingest.Settings
	override   map[string]bool // settings given on the command line
	read       ingest.Options
	out        string
	split      string
}

// runCheck implements "bulkdesk check": read a request file, spreadsheet
// or CSV, build its elements and report every problem, as text for people
// or as one JSON object for scripts.
func runCheck(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	cf, path, ok := parseCheckFlags(args, stderr)
	if !ok {
		return exitUsage
	}
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(stderr, "bulkdesk check:", err)
		return exitUsage
	}
	checked, err := checkFile(cf, path, data, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "bulkdesk check:", err)
		return exitUsage
	}
	if err := writeRequests(cf, path, checked, stderr); err != nil {
		fmt.Fprintln(stderr, "bulkdesk check:", err)
		return exitUsage
	}
	if cf.format == "json" {
		err = writeJSONReport(stdout, checked)
	} else {
		err = writeTextReport(stdout, path, checked)
	}
	if err != nil {
		fmt.Fprintln(stderr, "bulkdesk check: writing the report:", err)
		return exitUsage
	}
	if !checked.valid(cf.split != "") {
		return exitInvalid
	}
	return exitOK
}

func parseCheckFlags(args []string, stderr io.Writer) (*checkFlags, string, bool) {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	kindID := fs.String("kind", "", "bulk kind: "+kindList(schema.KindIDs()))
	cf := &checkFlags{override: make(map[string]bool)}
	fs.BoolVar(&cf.backOffice, "backoffice", false, "check for the back-office variant of the kind")
	fs.StringVar(&cf.format, "format", "text", "output format: text or json")
	fs.StringVar(&cf.sheet, "sheet", "", "the sheet of a workbook to read (default: the first visible sheet with values)")
	fs.StringVar(&cf.mapping, "mapping", "", "a mapping file (JSON) saying which column fills which field")
	fs.StringVar(&cf.settings.Amounts, "amounts", "", "amounts are written in minor units (1050 = 10.50) or major units (10.50): minor or major (default: detected)")
	fs.StringVar(&cf.settings.Decimal, "decimal", "", `decimal separator of amounts written as text: "." or "," (default: detected)`)
	fs.StringVar(&cf.settings.Group, "group", "", `digit-group separator of amounts: ",", ".", " ", "'" or "none" (default: detected)`)
	fs.StringVar(&cf.settings.DateOrder, "dates", "", "order of text dates such as 03/04/2025: DMY, MDY or YMD (default: detected)")
	fs.StringVar(&cf.settings.Currency, "currency", "", "currency of amounts whose row gives none (card spend rules), to read major units")
	fs.StringVar(&cf.read.Delimiter, "delimiter", "", `delimiter of a CSV file: ",", ";", "tab" or "|" (default: detected)`)
	fs.StringVar(&cf.read.Encoding, "encoding", "", "encoding of a CSV file: utf-8, utf-16le, utf-16be or windows-1252 (default: detected)")
	fs.StringVar(&cf.out, "o", "", "write the request body, as it would be sent, to this file")
	fs.StringVar(&cf.split, "split", "", "write the request as numbered JSON files of at most 10,000 elements into this directory")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: bulkdesk check -kind KIND [flags] FILE")
		fmt.Fprintln(stderr, "\nFILE is a workbook (.xlsx), a CSV or TSV file, or JSON: a request body (an array of")
		fmt.Fprintln(stderr, "{\"pathParams\": …, \"requestBody\": …}) or an array of flat objects, one per row.")
		fmt.Fprintln(stderr, "Exit status: 0 valid, 1 invalid, 2 usage error or unreadable input.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, "", false
	}
	if fs.NArg() != 1 || *kindID == "" || (cf.format != "text" && cf.format != "json") {
		fs.Usage()
		return nil, "", false
	}
	fs.Visit(func(f *flag.Flag) { cf.override[f.Name] = true })
	if cf.settings.Group == "none" {
		cf.settings.Group = ""
	}
	kind, err := schema.Lookup(*kindID)
	if err == nil {
		_, err = kind.Endpoint(cf.backOffice)
	}
	if err == nil {
		err = cf.settings.Check()
	}
	if err != nil {
		fmt.Fprintln(stderr, "bulkdesk check:", err)
		return nil, "", false
	}
	cf.kind = kind
	return cf, fs.Arg(0), true
}

// A checked file is the outcome of checking one file.
type checked struct {
	report   *schema.Report
	elements []any
	// source describes how a table was read; nil for request bodies.
	source *sourceInfo
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
}

// valid reports whether the check passes: no errors, counting a request
// that is only too large as valid when it is split.
func (c *checked) valid(split bool) bool {
	for _, p := range c.report.Problems {
		if p.Severity == schema.Error && !(split && p.Code == "too-many-elements") {
			return false
		}
	}
	return true
}

func checkFile(cf *checkFlags, path string, data []byte, stderr io.Writer) (*checked, error) {
	f, err := ingest.Open(path, data, cf.read)
	if err != nil {
		var se *schema.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("%s: not a JSON request body: %w", path, se)
		}
		return nil, err
	}
	v := schema.Default()
	if doc, _, ok := f.Request(); ok {
		return checkRequestBody(v, cf.kind, data, doc)
	}
	table, err := f.Table(cf.sheet, nil)
	if err != nil {
		return nil, err
	}
	im := ingest.NewImport(table, cf.kind, v)
	if cf.mapping != "" {
		data, err := os.ReadFile(cf.mapping)
		if err != nil {
			return nil, err
		}
		saved, err := ingest.UnmarshalMapping(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", cf.mapping, err)
		}
		missing, err := im.UseSavedMapping(saved)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", cf.mapping, err)
		}
		if len(missing) > 0 {
			fmt.Fprintf(stderr, "bulkdesk check: %s: the file has no column %s\n", cf.mapping, strings.Join(missing, ", "))
		}
	}
	if err := im.SetSettings(overrideSettings(im.Settings(), cf)); err != nil {
		return nil, err
	}
	res := im.Build(nil)
	m := im.Mapping()
	return &checked{
		report:   res.Report,
		elements: res.Request(),
		source: &sourceInfo{
			File: f.Name, Format: f.Format, Sheet: table.Sheet, Encoding: f.Encoding, Delimiter: f.Delimiter,
			HeaderRow: m.HeaderRow, Settings: im.Settings(), Columns: m.Columns,
		},
	}, nil
}

// overrideSettings applies the settings given on the command line over
// the detected (or mapping file's) ones.
func overrideSettings(s ingest.Settings, cf *checkFlags) ingest.Settings {
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
	return s
}

func checkRequestBody(v *schema.Validator, k *schema.Kind, data []byte, doc any) (*checked, error) {
	report, err := v.CheckRequest(k, data)
	if err != nil {
		return nil, err
	}
	elements, _ := doc.([]any)
	return &checked{report: report, elements: elements}, nil
}

// jsonReport is the one object "check -format json" prints.
type jsonReport struct {
	Kind            string           `json:"kind"`
	Elements        int              `json:"elements"`
	InvalidElements int              `json:"invalidElements"`
	Errors          []schema.Problem `json:"errors"`
	Warnings        []schema.Problem `json:"warnings"`
	Source          *sourceInfo      `json:"source,omitempty"`
}

func writeJSONReport(w io.Writer, c *checked) error {
	r := c.report
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(jsonReport{
		Kind:            r.Kind,
		Elements:        r.Elements,
		InvalidElements: len(r.InvalidElements()),
		Errors:          r.Errors(),
		Warnings:        r.Warnings(),
		Source:          c.source,
	})
}

func writeTextReport(w io.Writer, path string, c *checked) error {
	r := c.report
	errs, warns := r.Errors(), r.Warnings()
	verdict := "valid"
	if !r.Valid() {
		verdict = "INVALID"
	}
	if _, err := fmt.Fprintf(w, "%s: %s, %s: %d of %d elements invalid, %s, %s\n",
		path, r.Kind, verdict, len(r.InvalidElements()), r.Elements, count(len(errs), "error"), count(len(warns), "warning")); err != nil {
		return err
	}
	if s := c.source; s != nil {
		where := fmt.Sprintf("sheet %q", s.Sheet)
		switch s.Format {
		case ingest.CSV:
			where = fmt.Sprintf("%s, %s-separated", s.Encoding, ingest.DelimiterName(s.Delimiter))
		case ingest.JSON:
			where = "JSON objects"
		}
		mapped := 0
		for _, col := range s.Columns {
			if col.Field != "" {
				mapped++
			}
		}
		if _, err := fmt.Fprintf(w, "read %s, header row %d, %d of %d columns mapped; %s\n", where, s.HeaderRow, mapped, len(s.Columns), s.Settings); err != nil {
			return err
		}
	}
	for _, p := range r.Problems {
		if _, err := fmt.Fprintf(w, "%s: %s: %s\n", problemPlace(p), p.Severity, p.Message); err != nil {
			return err
		}
	}
	return nil
}

// problemPlace names where a problem is: its cell in the file when it came
// from one, else its element and pointer.
func problemPlace(p schema.Problem) string {
	if where := ingest.Where(p); where != "" {
		if p.Field != "" && !strings.HasPrefix(p.Message, p.Field) {
			return where + " (" + p.Field + ")"
		}
		return where
	}
	if p.Element == schema.RequestLevel {
		return "request"
	}
	where := fmt.Sprintf("element %d", p.Element)
	if p.Pointer != "" {
		where += " " + p.Pointer
	}
	return where
}

// writeRequests writes the request body (-o) and its split parts (-split).
func writeRequests(cf *checkFlags, path string, c *checked, stderr io.Writer) error {
	if cf.out != "" {
		if err := writeRequest(cf.out, c.elements); err != nil {
			return err
		}
	}
	if cf.split == "" || len(c.elements) == 0 {
		return nil
	}
	if err := os.MkdirAll(cf.split, 0o755); err != nil {
		return err
	}
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	parts := (len(c.elements) + schema.MaxElements - 1) / schema.MaxElements
	for i := range parts {
		chunk := c.elements[i*schema.MaxElements : min(len(c.elements), (i+1)*schema.MaxElements)]
		name := filepath.Join(cf.split, fmt.Sprintf("%s-%03d.json", base, i+1))
		if err := writeRequest(name, chunk); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "bulkdesk check: wrote %s (%d elements)\n", name, len(chunk))
	}
	return nil
}

// writeRequest writes elements as a request body: compact JSON, numbers
// as written, no HTML escaping.
func writeRequest(name string, elements []any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if elements == nil {
		elements = []any{}
	}
	if err := enc.Encode(elements); err != nil {
		return err
	}
	return os.WriteFile(name, buf.Bytes(), 0o644)
}

func count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
