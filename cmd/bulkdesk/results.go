package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/workbook"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/termsafe"
	"github.com/bulkdesk/bulkdesk/schema"
)

// resultsFlags are the flags of "bulks results".
type resultsFlags struct {
	out     string
	journal string
}

// runResults implements "bulks results": the result workbook of a bulk,
// as the console writes it, from the API's record of its operations and,
// when the journal submitted it, the file, sheet and row of each.
func runResults(ctx context.Context, c *bulkapi.Client, id string, rf *resultsFlags, contract *contractFlags, stdout, stderr io.Writer) int {
	fail := func(code int, f string, a ...any) int {
		termsafe.Fprintf(stderr, "bulkdesk bulks results: "+f+"\n", a...)
		return code
	}
	if rf.out == "" || !strings.EqualFold(filepath.Ext(rf.out), ".xlsx") {
		return fail(exitUsage, "-o FILE.xlsx names the workbook to write")
	}
	v, err := contract.validator("bulks results", stderr)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	defer c.CloseIdleConnections()
	b, err := c.Get(ctx, id)
	if err != nil {
		printAPIError(stderr, "bulks results", err)
		return exitInvalid
	}
	entries, err := journalSubmissionOf(ctx, rf.journal, id, c.IsBackOffice(), stderr)
	if err != nil {
		// The journal only places the rows: the workbook is whole without it.
		termsafe.Fprintf(stderr, "bulkdesk bulks results: the journal %s: %v; the rows are placed by element\n", rf.journal, err)
	}
	var k *schema.Kind
	if len(entries) > 0 {
		k, err = schema.Lookup(entries[0].Kind)
	} else {
		k, err = bulkreview.KindOfOperation(b.Operation, c.IsBackOffice())
		entries = []submission.Entry{workbook.BulkEntry(b)}
	}
	if err != nil {
		return fail(exitInvalid, "bulk %s: %v", id, err)
	}
	total := 0
	for _, e := range entries {
		total += e.Elements.Len()
	}
	last := -1
	rows, err := workbook.ResultRowsOf(k, entries, func(e submission.Entry, before int) ([]bulkapi.Operation, error) {
		return bulkreview.Operations(ctx, c, e.BulkID, func(done, _ int) {
			// A line per tenth: 10,000 operations are 100 pages.
			if tenth := (before + done) * 10 / max(total, 1); tenth != last && total > 10*bulkapi.MaxPageSize {
				last = tenth
				fmt.Fprintf(stderr, "read %d of %d operations\n", before+done, total)
			}
		})
	})
	if err != nil {
		printAPIError(stderr, "bulks results", err)
		return exitInvalid
	}
	data, err := workbook.ResultWorkbook(k, v.Fields(k), rows.Results, rows.Failed, rows.Notes)
	if err != nil {
		return fail(exitInvalid, "writing the workbook: %v", err)
	}
	// The rows name payees and accounts: the owner's to read.
	if err := os.WriteFile(rf.out, data, 0o600); err != nil {
		return fail(exitUsage, "%v", err)
	}
	termsafe.Fprintf(stdout, "wrote %s: %s, %d failed or cancelled\n", rf.out, plural(len(rows.Results), "row", "rows"), len(rows.Failed))
	return exitOK
}

// journalSubmissionOf returns the journal's entries of the submission
// that made bulk id, in chunk order, or nil when the journal does not know
// it. A journal that does not exist is not made.
func journalSubmissionOf(ctx context.Context, path, id string, backOffice bool, stderr io.Writer) ([]submission.Entry, error) {
	if path == "" {
		return nil, nil
	}
	if !journalExists(path) {
		return nil, nil
	}
	j, err := openJournal(ctx, path, 0, stderr)
	if err != nil {
		return nil, err
	}
	all, err := j.Entries(ctx)
	if err != nil {
		return nil, err
	}
	for _, s := range submission.Submissions(all) {
		for _, e := range s.Entries {
			if e.BulkID == id && e.BackOffice == backOffice {
				return s.Entries, nil
			}
		}
	}
	return nil, nil
}
