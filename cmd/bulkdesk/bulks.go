package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/termsafe"
)

// runBulks implements "bulkdesk bulks": list, read and run bulk processes.
func runBulks(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	usage := func() {
		fmt.Fprintln(stderr, "usage: bulkdesk bulks list [-status S] [-offset N] [-limit N | -all]")
		fmt.Fprintln(stderr, "       bulkdesk bulks get [-wait] ID")
		fmt.Fprintln(stderr, "       bulkdesk bulks execute [-mode ON_FAILURE_CONTINUE|ON_FAILURE_STOP] [-webhook-interval N] ID")
		fmt.Fprintln(stderr, "       bulkdesk bulks pause|resume|cancel ID")
		fmt.Fprintln(stderr, "       bulkdesk bulks operations [-status S] [-offset N] [-limit N | -all] ID")
		fmt.Fprintln(stderr, "       bulkdesk bulks review [-receipt FILE] [-count N] [-total \"EUR 1,234.56\"]... [-repeats] [-contract FILE [-strict]] ID")
		fmt.Fprintln(stderr, "       bulkdesk bulks results -o FILE.xlsx [-journal FILE] [-contract FILE] ID")
		fmt.Fprintln(stderr, "\nEach also takes -api-url URL, -backoffice [-identity TYPE:ID] and -format text|json.")
		fmt.Fprintln(stderr, credentialsHelp)
		fmt.Fprintln(stderr, "\nreview reads every operation of the bulk from the API and rebuilds its elements: it prints their")
		fmt.Fprintln(stderr, "count, totals per currency and per source, invalid elements and the body's SHA-256, and every difference")
		fmt.Fprintln(stderr, "from the maker's receipt (\"bulkdesk submit -receipt\") and from the control totals typed with -count and")
		fmt.Fprintln(stderr, "-total, each element that differs by its index; -repeats names elements other bulks of the API's record")
		fmt.Fprintln(stderr, "hold too. -format json also lists every element: index, valid, problems, counterparty, amount (currency")
		fmt.Fprintln(stderr, "and minor units as digits), reference, source, repeatOf. Its exit status is 0 when everything matches")
		fmt.Fprintln(stderr, "and every element is valid, 1 otherwise.")
		fmt.Fprintln(stderr, "\nresults writes the result workbook the console writes: every element with its state, its error or")
		fmt.Fprintln(stderr, "the API's response, whom it paid, its amount, currency and reference, and its file, sheet and row when")
		fmt.Fprintln(stderr, "the journal submitted it; the failed rows first, on a sheet that loads again as a file of the kind.")
		fmt.Fprintln(stderr, "Exit status: 0 done, 1 refused by the API, 2 usage error.")
	}
	if len(args) == 0 {
		usage()
		return exitUsage
	}
	verb := args[0]
	fs := flag.NewFlagSet("bulks "+verb, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = usage
	var api apiFlags
	api.register(fs)
	format := fs.String("format", "text", "output format: text or json")
	var (
		status          = fs.String("status", "", "only bulks or operations in this state")
		offset          = fs.Int("offset", 0, "first record of the page")
		limit           = fs.Int("limit", bulkapi.MaxPageSize, "records per page, at most 100")
		all             = fs.Bool("all", false, "every page")
		wait            = fs.Bool("wait", false, "get: poll until the bulk ends, reporting progress")
		mode            = fs.String("mode", string(bulkapi.OnFailureContinue), "execute: what a failed operation does")
		webhookInterval = fs.Int("webhook-interval", 0, "execute: a progress event every N operations")
		rf              reviewFlags
		results         resultsFlags
	)
	rf.register(fs)
	fs.StringVar(&results.out, "o", "", "results: the workbook to write (.xlsx)")
	fs.StringVar(&results.journal, "journal", defaultJournal(), "results: the journal that places each row in its file (default $"+envJournal+", else journal.db in the user's config folder)")
	ids, err := parseInterleaved(fs, args[1:])
	if err != nil {
		return exitUsage
	}
	if err := rf.parse(); err != nil {
		termsafe.Fprintln(stderr, "bulkdesk bulks:", err)
		return exitUsage
	}
	needsID := verb != "list"
	if needsID != (len(ids) == 1) || len(ids) > 1 || (*format != "text" && *format != "json") {
		usage()
		return exitUsage
	}
	var id string
	if needsID {
		id = ids[0]
	}
	ctx, stop := interrupted()
	defer stop()
	c, err := api.client(ctx)
	if err != nil {
		termsafe.Fprintln(stderr, "bulkdesk bulks:", err)
		return exitUsage
	}
	switch verb {
	case "review":
		return runReview(ctx, c, id, &rf, *format, stdout, stderr)
	case "results":
		return runResults(ctx, c, id, &results, &rf.contract, stdout, stderr)
	}
	var out any
	switch verb {
	case "list":
		if *all {
			out, err = c.ListAll(ctx, bulkapi.Status(*status))
		} else {
			var p *bulkapi.BulkPage
			if p, err = c.List(ctx, bulkapi.ListQuery{Status: bulkapi.Status(*status), Offset: *offset, Limit: *limit}); err == nil {
				out = p.Bulks
				fmt.Fprintf(stderr, "%d of %d bulks from %d\n", p.ResponseCount, p.Count, *offset)
			}
		}
	case "get":
		if *wait {
			out, err = waitForEnd(ctx, c, id, stderr)
		} else {
			out, err = c.Get(ctx, id)
		}
	case "execute":
		err = c.Execute(ctx, id, bulkapi.ExecuteOptions{Mode: bulkapi.Mode(*mode), WebhookInterval: *webhookInterval})
	case "pause", "resume", "cancel":
		err = c.Do(ctx, id, bulkapi.Action(verb))
	case "operations":
		if *all {
			out, err = c.AllOperations(ctx, id, bulkapi.OperationStatus(*status))
		} else {
			var p *bulkapi.OperationPage
			if p, err = c.Operations(ctx, id, bulkapi.OperationQuery{Status: bulkapi.OperationStatus(*status), Offset: *offset, Limit: *limit}); err == nil {
				out = p.Operations
				fmt.Fprintf(stderr, "%d of %d operations from %d\n", p.ResponseCount, p.Count, *offset)
			}
		}
	default:
		termsafe.Fprintf(stderr, "bulkdesk bulks: unknown action %q\n\n", verb)
		usage()
		return exitUsage
	}
	if err != nil {
		printAPIError(stderr, "bulks "+verb, err)
		return exitInvalid
	}
	if out == nil {
		termsafe.Fprintf(stdout, "bulk %s: %s accepted\n", id, verb)
		return exitOK
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(out)
		return exitOK
	}
	writeTable(stdout, out)
	return exitOK
}

// parseInterleaved parses flags before and after the arguments
// ("results ID -o FILE.xlsx" as "results -o FILE.xlsx ID") and returns
// the arguments.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var out []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return out, nil
		}
		out = append(out, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// waitForEnd polls a bulk until it ends, reporting progress when it moves.
func waitForEnd(ctx context.Context, c *bulkapi.Client, id string, w io.Writer) (*bulkapi.BulkProcess, error) {
	last := -1
	for {
		b, err := c.Get(ctx, id)
		if err != nil {
			return nil, err
		}
		if done := b.Done(); done != last {
			termsafe.Fprintf(w, "bulk %s: %s, %d of %d operations done\n", id, b.Status, done, b.SubmittedItemsCount)
			last = done
		}
		if b.Status.Final() || b.Status == bulkapi.Submitted || b.Status == bulkapi.Paused {
			return b, nil
		}
		select {
		case <-time.After(time.Second):
		case <-ctx.Done():
			return b, ctx.Err()
		}
	}
}

func writeTable(w io.Writer, out any) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	defer tw.Flush()
	switch v := out.(type) {
	case *bulkapi.BulkProcess:
		termsafe.Fprintf(tw, "bulk\t%s\nstatus\t%s\noperation\t%s\noperations\t%d\n", v.BulkID, v.Status, v.Operation, v.SubmittedItemsCount)
		for _, sc := range v.OperationStatusCounts {
			termsafe.Fprintf(tw, "  %s\t%d\n", sc.Status, sc.Count)
		}
		if len(v.Status.Actions()) > 0 {
			var acts []string
			for _, a := range v.Status.Actions() {
				acts = append(acts, string(a))
			}
			termsafe.Fprintf(tw, "allowed\t%s\n", strings.Join(acts, ", "))
		}
	case []bulkapi.BulkProcess:
		fmt.Fprintln(tw, "BULK\tSTATUS\tOPERATIONS\tOPERATION")
		for _, b := range v {
			termsafe.Fprintf(tw, "%s\t%s\t%d\t%s\n", b.BulkID, b.Status, b.SubmittedItemsCount, b.Operation)
		}
	case []bulkapi.Operation:
		fmt.Fprintln(tw, "SEQUENCE\tSTATUS\tOPERATION\tERROR")
		for _, op := range v {
			termsafe.Fprintf(tw, "%d\t%s\t%s %s\t%s\n", op.Sequence, op.Status, op.Method, op.Path, op.Failure())
		}
	}
}
