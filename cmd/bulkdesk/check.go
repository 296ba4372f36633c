package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/bulkdesk/bulkdesk/schema"
)

// runCheck implements "bulkdesk check": validate a request file and report
// every problem, as text for people or as one JSON object for scripts.
func runCheck(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	kindID := fs.String("kind", "", "bulk kind: "+kindList(schema.KindIDs()))
	backOffice := fs.Bool("backoffice", false, "check for the back-office variant of the kind")
	format := fs.String("format", "text", "output format: text or json")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: bulkdesk check -kind KIND [-backoffice] [-format text|json] FILE")
		fmt.Fprintln(stderr, "\nFILE is a JSON request body: an array of {\"pathParams\": …, \"requestBody\": …}.")
		fmt.Fprintln(stderr, "Exit status: 0 valid, 1 invalid, 2 usage error or unreadable input.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() != 1 || *kindID == "" || (*format != "text" && *format != "json") {
		fs.Usage()
		return exitUsage
	}
	kind, err := schema.Lookup(*kindID)
	if err != nil {
		fmt.Fprintln(stderr, "bulkdesk check:", err)
		return exitUsage
	}
	if _, err := kind.Endpoint(*backOffice); err != nil {
		fmt.Fprintln(stderr, "bulkdesk check:", err)
		return exitUsage
	}
	path := fs.Arg(0)
	body, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(stderr, "bulkdesk check:", err)
		return exitUsage
	}
	report, err := schema.Default().CheckRequest(kind, body)
	if err != nil {
		var se *schema.SyntaxError
		if errors.As(err, &se) {
			fmt.Fprintf(stderr, "bulkdesk check: %s: not a JSON request body: %v\n", path, err)
		} else {
			fmt.Fprintf(stderr, "bulkdesk check: %s: %v\n", path, err)
		}
		return exitUsage
	}
	if *format == "json" {
		err = writeJSONReport(stdout, report)
	} else {
		err = writeTextReport(stdout, path, report)
	}
	if err != nil {
		fmt.Fprintln(stderr, "bulkdesk check: writing the report:", err)
		return exitUsage
	}
	if !report.Valid() {
		return exitInvalid
	}
	return exitOK
}

// jsonReport is the one object "check -format json" prints.
type jsonReport struct {
	Kind            string           `json:"kind"`
	Elements        int              `json:"elements"`
	InvalidElements int              `json:"invalidElements"`
	Errors          []schema.Problem `json:"errors"`
	Warnings        []schema.Problem `json:"warnings"`
}

func writeJSONReport(w io.Writer, r *schema.Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(jsonReport{
		Kind:            r.Kind,
		Elements:        r.Elements,
		InvalidElements: len(r.InvalidElements()),
		Errors:          r.Errors(),
		Warnings:        r.Warnings(),
	})
}

func writeTextReport(w io.Writer, path string, r *schema.Report) error {
	errs, warns := r.Errors(), r.Warnings()
	verdict := "valid"
	if !r.Valid() {
		verdict = "INVALID"
	}
	if _, err := fmt.Fprintf(w, "%s: %s, %s: %d of %d elements invalid, %s, %s\n",
		path, r.Kind, verdict, len(r.InvalidElements()), r.Elements, count(len(errs), "error"), count(len(warns), "warning")); err != nil {
		return err
	}
	for _, p := range r.Problems {
		where := "request"
		if p.Element != schema.RequestLevel {
			where = fmt.Sprintf("element %d", p.Element)
			if p.Pointer != "" {
				where += " " + p.Pointer
			}
		}
		if p.Sheet != "" {
			where = fmt.Sprintf("%s!%s%d (%s)", p.Sheet, p.Column, p.Row, p.Field)
		}
		if _, err := fmt.Fprintf(w, "%s: %s: %s\n", where, p.Severity, p.Message); err != nil {
			return err
		}
	}
	return nil
}

func count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
