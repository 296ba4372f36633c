package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/termsafe"
	"github.com/bulkdesk/bulkdesk/schema"
)

// checkFlags are the settings of one "bulkdesk check".
type checkFlags struct {
	inputFlags
	kind       *schema.Kind
	backOffice bool
	format     string
	out        string
	split      string
	saveMap    string
}

// runCheck implements "bulkdesk check": read a request file, spreadsheet
// or CSV, build its elements and report every problem, as text for people
// or as one JSON object for scripts.
func runCheck(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	cf, path, ok := parseCheckFlags(args, stderr)
	if !ok {
		return exitUsage
	}
	limitMemory()
	data, err := os.ReadFile(path)
	if err != nil {
		termsafe.Fprintln(stderr, "bulkdesk check:", err)
		return exitUsage
	}
	cf.onDemand = true
	l := cf.contract.lang.tag
	checked, err := readBulkFile(&cf.inputFlags, cf.kind, path, data, "check", stderr)
	if err != nil {
		termsafe.Fprintln(stderr, "bulkdesk check:", l.Say(err))
		return exitUsage
	}
	if cf.saveMap != "" {
		if checked.reading == nil {
			fmt.Fprintln(stderr, "bulkdesk check: -save-mapping:", l.T("a request body has no mapping"))
			return exitUsage
		}
		data, err := ingest.MarshalMapping(checked.mapping)
		if err == nil {
			err = os.WriteFile(cf.saveMap, data, 0o644)
		}
		if err != nil {
			termsafe.Fprintln(stderr, "bulkdesk check:", err)
			return exitUsage
		}
	}
	if err := writeRequests(cf, path, checked, stderr); err != nil {
		termsafe.Fprintln(stderr, "bulkdesk check:", err)
		return exitUsage
	}
	if cf.format == "json" {
		err = writeJSONReport(stdout, checked)
	} else {
		err = writeTextReport(stdout, path, checked)
	}
	if err != nil {
		termsafe.Fprintln(stderr, "bulkdesk check: writing the report:", err)
		return exitUsage
	}
	if !checked.valid(cf.split != "") {
		return exitInvalid
	}
	return exitOK
}

// limitMemory sets ingest.MemoryLimit unless GOMEMLIMIT sets a limit.
func limitMemory() {
	if debug.SetMemoryLimit(-1) == math.MaxInt64 {
		debug.SetMemoryLimit(ingest.MemoryLimit)
	}
}

func parseCheckFlags(args []string, stderr io.Writer) (*checkFlags, string, bool) {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	kindID := fs.String("kind", "", "bulk kind: "+kindList(schema.KindIDs()))
	cf := &checkFlags{}
	fs.BoolVar(&cf.backOffice, "backoffice", false, "check for the back-office variant of the kind")
	fs.StringVar(&cf.format, "format", "text", "output format: text or json")
	cf.inputFlags.register(fs)
	fs.StringVar(&cf.out, "o", "", "write the request body, as it would be sent, to this file")
	fs.StringVar(&cf.split, "split", "", "write the request as numbered JSON files of at most 10,000 elements into this directory")
	fs.StringVar(&cf.saveMap, "save-mapping", "", "write how the file was read (sheet, header row, columns, settings, encoding, delimiter) to this mapping file, for -mapping")
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
	kind, err := schema.Lookup(*kindID)
	if err == nil {
		_, err = kind.Endpoint(cf.backOffice)
	}
	if err == nil {
		err = cf.inputFlags.parsed(fs)
	}
	if err != nil {
		termsafe.Fprintln(stderr, "bulkdesk check:", cf.contract.lang.tag.Say(err))
		return nil, "", false
	}
	cf.kind = kind
	return cf, fs.Arg(0), true
}

// jsonReport is the one object "check -format json" prints.
type jsonReport struct {
	Kind            string           `json:"kind"`
	Elements        int              `json:"elements"`
	InvalidElements int              `json:"invalidElements"`
	Errors          []schema.Problem `json:"errors"`
	Warnings        []schema.Problem `json:"warnings"`
	Source          *sourceInfo      `json:"source,omitempty"`
	// Reading is every decision taken to read a table (none for a
	// request body): detected, chosen or default, and undecided ones
	// with the cells that disagree.
	Reading *reading.Reading `json:"reading,omitempty"`
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
		Reading:         c.reading,
	})
}

// The report is written in -lang's words, its numbers as the language
// writes them; the paths, codes and values of the file stay as they are.
func writeTextReport(w io.Writer, path string, c *checked) error {
	r, l := c.report, c.lang
	errs, warns := r.Errors(), r.Warnings()
	verdict := l.T("valid")
	if !r.Valid() {
		verdict = l.T("INVALID")
	}
	// The noun agrees with the total: "0 sur 1 élément invalide".
	invalidOf := lang.Mark("%s: %s, %s: %s of %s elements invalid, %s, %s")
	if l.Singular(r.Elements) {
		invalidOf = lang.Mark("%s: %s, %s: %s of %s element invalid, %s, %s")
	}
	if _, err := termsafe.Fprintln(w, l.F(invalidOf,
		path, r.Kind, verdict, l.Count(len(r.InvalidElements())), l.Count(r.Elements), l.Plural(len(errs), "error", "errors"), l.Plural(len(warns), "warning", "warnings"))); err != nil {
		return err
	}
	if s := c.source; s != nil {
		where := l.F("sheet %q", s.Sheet)
		switch s.Format {
		case ingest.CSV:
			where = l.F("%s, %s-separated", s.Encoding, l.T(reading.DelimiterName(s.Delimiter)))
		case ingest.JSON:
			where = l.T("JSON objects")
		}
		mapped := 0
		for _, col := range s.Columns {
			if col.Field != "" {
				mapped++
			}
		}
		set := ""
		for _, f := range slices.Sorted(maps.Keys(s.Values)) {
			set += fmt.Sprintf(", %s=%s", f, s.Values[f])
		}
		if set != "" {
			set = l.F(", set for every row%s", set)
		}
		mappedOf := lang.Mark("read %s, header row %d, %s of %s columns mapped%s; %s")
		if l.Singular(len(s.Columns)) {
			mappedOf = lang.Mark("read %s, header row %d, %s of %s column mapped%s; %s")
		}
		if _, err := termsafe.Fprintln(w, l.F(mappedOf, where, s.HeaderRow, l.Count(mapped), l.Count(len(s.Columns)), set, s.Settings.In(l))); err != nil {
			return err
		}
	}
	for _, line := range readingLines(c) {
		if _, err := termsafe.Fprintln(w, line); err != nil {
			return err
		}
	}
	for _, p := range r.Problems {
		if _, err := termsafe.Fprintln(w, l.F("%s: %s: %s", problemPlace(p, l), severityWord(p.Severity, l), cliMessage(p, l))); err != nil {
			return err
		}
	}
	return nil
}

// severityWord names a problem's severity in l: "error", "Fehler".
func severityWord(s schema.Severity, l lang.Tag) string {
	if s == schema.Warning {
		return l.T("warning")
	}
	return l.T("error")
}

// problemPlace names where a problem is: its cell in the file when it came
// from one, else its element and pointer.
func problemPlace(p schema.Problem, l lang.Tag) string {
	if where := ingest.WhereIn(p, l); where != "" {
		if p.Field != "" && !strings.HasPrefix(p.Message, p.Field) {
			return where + " (" + p.Field + ")"
		}
		return where
	}
	if p.Element == schema.RequestLevel {
		return l.T("request")
	}
	where := l.F("element %d", p.Element)
	if p.Pointer != "" {
		where += " " + p.Pointer
	}
	return where
}

// writeRequests writes the request body (-o) and its split parts (-split).
func writeRequests(cf *checkFlags, path string, c *checked, stderr io.Writer) error {
	if cf.out != "" {
		if err := writeRequest(cf.out, c, 0, c.count); err != nil {
			return err
		}
	}
	if cf.split == "" || c.count == 0 {
		return nil
	}
	if err := os.MkdirAll(cf.split, 0o755); err != nil {
		return err
	}
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	parts := (c.count + schema.MaxElements - 1) / schema.MaxElements
	for i := range parts {
		lo, hi := i*schema.MaxElements, min(c.count, (i+1)*schema.MaxElements)
		name := filepath.Join(cf.split, fmt.Sprintf("%s-%03d.json", base, i+1))
		if err := writeRequest(name, c, lo, hi); err != nil {
			return err
		}
		termsafe.Fprintln(stderr, "bulkdesk check:", c.lang.F("wrote %s (%s)", name, c.lang.Plural(hi-lo, "element", "elements")))
	}
	return nil
}

// writeRequest writes elements lo to hi (excluded) of c as a request body:
// compact JSON, numbers as written, no HTML escaping. It builds and writes
// them a thousand at a time, so that a large request never has all its
// elements built, nor all its text, in memory at once.
func writeRequest(name string, c *checked, lo, hi int) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	// The encoder ends each value with a newline: the elements are
	// encoded one by one into buf, and written without it, so that the
	// file is what encoding the whole array writes.
	var buf bytes.Buffer
	one := json.NewEncoder(&buf)
	one.SetEscapeHTML(false)
	w.WriteByte('[')
	for start := lo; start < hi && err == nil; start += 1000 {
		for i, e := range c.elementRange(start, min(hi, start+1000)) {
			if start+i > lo {
				w.WriteByte(',')
			}
			buf.Reset()
			if err = one.Encode(e); err != nil {
				break
			}
			w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
		}
	}
	if err == nil {
		w.WriteString("]\n")
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
