package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/workbook"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/termsafe"
	"github.com/bulkdesk/bulkdesk/schema"
)

// runTemplate implements "bulkdesk template": write a file for operators
// to fill in, which imports with no mapping step.
func runTemplate(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("template", flag.ContinueOnError)
	fs.SetOutput(stderr)
	kindID := fs.String("kind", "", "bulk kind: "+kindList(schema.KindIDs()))
	backOffice := fs.Bool("backoffice", false, "for the back-office variant of the kind")
	out := fs.String("o", "", "the file to write: .xlsx (with dropdowns and a Fields sheet) or .csv")
	var cf contractFlags
	cf.registerFile(fs)
	cf.registerLang(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: bulkdesk template -kind KIND [-backoffice] [-contract OPENAPI.yml] [-lang en|de|fr] -o FILE.xlsx|FILE.csv")
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
		data, err = workbook.TemplateXLSX(kind, fields, cf.lang.tag)
	case ".csv":
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
