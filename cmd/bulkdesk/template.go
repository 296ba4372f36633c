package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/workbook"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/termsafe"
	"github.com/bulkdesk/bulkdesk/schema"
)

// runTemplate implements "bulkdesk template": write a file for operators
// to fill in, which imports with no mapping step. A workbook is written
// in the operator's words (-lang) and reads back exactly as it is typed,
// with no question; a CSV file is the API's own form, for programs.
func runTemplate(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("template", flag.ContinueOnError)
	fs.SetOutput(stderr)
	kindID := fs.String("kind", "", "bulk kind: "+kindList(schema.KindIDs()))
	backOffice := fs.Bool("backoffice", false, "for the back-office variant of the kind")
	out := fs.String("o", "", "the file to write: .xlsx (headed in the operator's words, with dropdowns and a Fields sheet) or .csv (the fields' paths, amounts in minor units)")
	zone := fs.String("time-zone", "", "the IANA time zone the workbook's dates and times are in, such as Europe/Berlin (default: chosen when the filled workbook is read)")
	var cf contractFlags
	cf.registerFile(fs)
	cf.registerLang(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: bulkdesk template -kind KIND [-backoffice] [-contract OPENAPI.yml] [-lang en|de|fr] [-time-zone ZONE] -o FILE.xlsx|FILE.csv")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() != 0 || *kindID == "" || *out == "" {
		fs.Usage()
		return exitUsage
	}
	kind, err := schema.Lookup(*kindID)
	if err == nil {
		_, err = kind.Endpoint(*backOffice)
	}
	if err == nil && *zone != "" {
		err = ingest.Settings{TimeZone: *zone}.Check() // as check and submit read it
	}
	if err != nil {
		termsafe.Fprintln(stderr, "bulkdesk template:", err)
		return exitUsage
	}
	v, err := cf.validator("template", stderr)
	if err == nil {
		err = v.Has(kind)
	}
	if err != nil {
		termsafe.Fprintln(stderr, "bulkdesk template:", err)
		return exitInvalid
	}
	fields := v.Fields(kind)
	var data []byte
	switch ext := strings.ToLower(filepath.Ext(*out)); ext {
	case ".xlsx":
		data, err = workbook.WriteTemplate(kind, fields, workbook.Template{Lang: cf.lang.tag, TimeZone: *zone, BackOffice: *backOffice})
	case ".csv":
		if *zone != "" {
			termsafe.Fprintln(stderr, "bulkdesk template: -time-zone is for a workbook (.xlsx): a CSV template takes timestamps as milliseconds")
			return exitUsage
		}
		data, err = workbook.TemplateCSV(kind, fields)
	default:
		termsafe.Fprintf(stderr, "bulkdesk template: %s: the file must end in .xlsx or .csv\n", *out)
		return exitUsage
	}
	if err == nil {
		err = os.WriteFile(*out, data, 0o644)
	}
	if err != nil {
		termsafe.Fprintln(stderr, "bulkdesk template:", err)
		return exitUsage
	}
	termsafe.Fprintf(stdout, "wrote %s: the %s template\n", *out, kind.Title)
	return exitOK
}
