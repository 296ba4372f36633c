package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/filestore"
	"github.com/bulkdesk/bulkdesk/app/submission/memstore"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/termsafe"
	"github.com/bulkdesk/bulkdesk/schema"
)

// reviewFlags are the flags of "bulks review".
type reviewFlags struct {
	receipt string
	count   int
	// typed are the control totals as given; totals them read, once
	// -lang is known (parse).
	typed    []string
	totals   []bulkreview.ControlTotal
	repeats  bool
	contract contractFlags
}

func (r *reviewFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&r.receipt, "receipt", "", "review: compare with the maker's receipt (bulkdesk submit -receipt)")
	fs.IntVar(&r.count, "count", -1, "review: the control count of elements, as typed by the checker")
	fs.Func("total", "review: a control total, as \"EUR 1,234.56\", or as -lang writes numbers (\"EUR 1.234,56\" with -lang de); once per currency", func(s string) error {
		r.typed = append(r.typed, s)
		return nil
	})
	fs.BoolVar(&r.repeats, "repeats", false, "review: name the elements other bulks hold too (the API's record, cached beside the journal)")
	r.contract.register(fs)
}

// parse reads the control totals given, as -lang writes numbers.
func (r *reviewFlags) parse() error {
	r.totals = nil
	for _, s := range r.typed {
		t, err := bulkreview.ParseControlTotal(s, r.contract.lang.tag.Separators())
		if err != nil {
			return fmt.Errorf("invalid value %q for flag -total: %w", s, err)
		}
		r.totals = append(r.totals, t)
	}
	return nil
}

// maxReviewLines is how many invalid elements, and problems of each, the
// text review names.
const maxReviewLines = 20

// maxElementDifferences is how many elements that differ from the
// receipt the text review names.
const maxElementDifferences = 10

// reviewJSON is "bulks review -format json".
type reviewJSON struct {
	BulkID     string                     `json:"bulkId"`
	Kind       string                     `json:"kind"`
	API        string                     `json:"api"`
	Status     bulkapi.Status             `json:"status"`
	Operations int                        `json:"operations"`
	Listed     int                        `json:"listed"`
	Totals     []bulkreview.Amount        `json:"totals"`
	Sources    []bulkreview.SourceAmounts `json:"sources"`
	BodySHA256 string                     `json:"bodySha256"`
	Invalid    []invalidJSON              `json:"invalid"`
	Warnings   int                        `json:"warnings"`
	Notes      []string                   `json:"notes,omitempty"`
	// Receipt is the file compared with, and Differences every
	// difference from it and from the typed control totals.
	Receipt     string                  `json:"receipt,omitempty"`
	Differences []bulkreview.Difference `json:"differences"`
	Repeats     []repeatJSON            `json:"repeats,omitempty"`
	Matches     bool                    `json:"matches"`
	// Elements are every element of the bulk in order, with its key
	// fields (amounts in minor units, as digits) and its problems.
	Elements []bulkreview.Element `json:"elements"`
}

type invalidJSON struct {
	Sequence int              `json:"sequence"`
	Problems []schema.Problem `json:"problems"`
}

type repeatJSON struct {
	Sequence int    `json:"sequence"`
	BulkID   string `json:"bulkId"`
	Earlier  string `json:"earlier"`
	Others   int    `json:"others,omitempty"`
}

// runReview implements "bulks review": the four-eyes check of a bulk
// before it is executed.
func runReview(ctx context.Context, c *bulkapi.Client, id string, rf *reviewFlags, format string, stdout, stderr io.Writer) int {
	fail := func(code int, f string, a ...any) int {
		termsafe.Fprintf(stderr, "bulkdesk bulks review: "+f+"\n", a...)
		return code
	}
	var rc *bulkreview.Receipt
	if rf.receipt != "" {
		data, err := os.ReadFile(rf.receipt)
		if err != nil {
			return fail(exitUsage, "%v", err)
		}
		if rc, err = bulkreview.ReadReceipt(data); err != nil {
			return fail(exitUsage, "%s: %v", rf.receipt, err)
		}
	}
	v, err := rf.contract.validator("bulks review", stderr)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	defer c.CloseIdleConnections()
	last := -1
	rv, err := bulkreview.Fetch(ctx, c, id, bulkreview.Options{Validator: v, Progress: func(done, total int) {
		// A line per tenth: a 10,000-element bulk is 100 pages.
		if tenth := done * 10 / max(total, 1); tenth != last && total > 10*bulkapi.MaxPageSize {
			last = tenth
			fmt.Fprintf(stderr, "read %d of %d operations\n", done, total)
		}
	}})
	if err != nil {
		printAPIError(stderr, "bulks review", err)
		return exitInvalid
	}
	var diffs []bulkreview.Difference
	if rc != nil {
		diffs = bulkreview.Compare(rc, rv)
	}
	diffs = append(diffs, bulkreview.Control{Count: rf.count, Totals: rf.totals}.Compare(rv)...)
	var repeats []submission.Repeat
	if rf.repeats {
		if repeats, err = reviewRepeats(ctx, c, rv); err != nil {
			return fail(exitInvalid, "checking for elements other bulks hold: %v", err)
		}
	}
	matches := len(diffs) == 0 && rv.Valid() && len(repeats) == 0 && len(rv.Notes) == 0
	out := reviewJSON{BulkID: rv.BulkID, Kind: rv.Kind.ID, API: rv.API(), Status: rv.Status, Operations: len(rv.Elements), Listed: rv.Listed,
		Totals: bulkreview.AmountsOf(rv.Currencies), Sources: bulkreview.SourcesOf(rv.Sources), BodySHA256: rv.BodySHA256,
		Invalid: []invalidJSON{}, Warnings: len(rv.Report.Warnings()), Notes: rv.Notes, Receipt: rf.receipt, Differences: diffs, Matches: matches}
	if out.Differences == nil {
		out.Differences = []bulkreview.Difference{}
	}
	for _, i := range rv.Invalid {
		var errs []schema.Problem
		for _, p := range rv.Problems(i) {
			if p.Severity == schema.Error {
				errs = append(errs, p)
			}
		}
		out.Invalid = append(out.Invalid, invalidJSON{Sequence: i, Problems: errs})
	}
	for _, r := range repeats {
		out.Repeats = append(out.Repeats, repeatJSON{Sequence: r.Element, BulkID: r.Earlier.BulkID, Earlier: r.Earlier.Describe(), Others: r.Others})
	}
	if format == "json" {
		out.Elements = rv.ElementList(repeats)
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(out)
	} else {
		writeReview(stdout, &out, rc)
	}
	if !matches {
		return exitInvalid
	}
	return exitOK
}

// reviewRepeats checks the bulk's elements against the API's record of
// the identity's other bulks, with the record cached beside the journal.
func reviewRepeats(ctx context.Context, c *bulkapi.Client, rv *bulkreview.Review) ([]submission.Repeat, error) {
	var cache submission.RecordCache = memstore.NewRecordCache()
	if j := defaultJournal(); j != "" {
		cache = filestore.NewRecordCache(filestore.RecordPathFor(j))
	}
	now := time.Now()
	if err := rv.Remember(ctx, cache, c.BaseURL(), now); err != nil {
		return nil, err
	}
	record, err := submission.UpdateRecord(ctx, c, cache, c.BaseURL(), now, rv.Kind, nil)
	if err != nil {
		return nil, err
	}
	return rv.Repeats(nil, record, now)
}

func writeReview(w io.Writer, r *reviewJSON, rc *bulkreview.Receipt) {
	termsafe.Fprintf(w, "bulk %s: %s on the %s API, %s\n", r.BulkID, r.Kind, r.API, r.Status)
	fmt.Fprintf(w, "operations: %d\n", r.Operations)
	for _, n := range r.Notes {
		termsafe.Fprintf(w, "note: %s\n", n)
	}
	for _, t := range r.Totals {
		termsafe.Fprintf(w, "total: %s in %s\n", amountText(t), plural(t.Count, "amount", "amounts"))
	}
	for _, s := range r.Sources[:min(maxReviewLines, len(r.Sources))] {
		parts := make([]string, len(s.Totals))
		for i, t := range s.Totals {
			parts[i] = amountText(t)
		}
		line := fmt.Sprintf("source %s: %s", s.Source, plural(s.Count, "element", "elements"))
		if len(parts) > 0 {
			line += ", " + strings.Join(parts, ", ")
		}
		termsafe.Fprintln(w, line)
	}
	if len(r.Sources) > maxReviewLines {
		fmt.Fprintf(w, "and %d more sources (-format json lists them all)\n", len(r.Sources)-maxReviewLines)
	}
	termsafe.Fprintf(w, "body sha256: %s\n", r.BodySHA256)
	if len(r.Invalid) == 0 {
		termsafe.Fprintf(w, "valid: every element (%s)\n", plural(r.Warnings, "warning", "warnings"))
	} else {
		fmt.Fprintf(w, "invalid: %d of %d elements\n", len(r.Invalid), r.Operations)
		for _, in := range r.Invalid[:min(maxReviewLines, len(r.Invalid))] {
			for _, p := range in.Problems[:min(3, len(in.Problems))] {
				termsafe.Fprintf(w, "  sequence %d: %s\n", in.Sequence, p.Message)
			}
		}
		if len(r.Invalid) > maxReviewLines {
			fmt.Fprintf(w, "  and %d more invalid elements\n", len(r.Invalid)-maxReviewLines)
		}
	}
	for _, rp := range r.Repeats[:min(maxReviewLines, len(r.Repeats))] {
		termsafe.Fprintf(w, "repeat: sequence %d was submitted before in %s\n", rp.Sequence, rp.Earlier)
	}
	if len(r.Repeats) > maxReviewLines {
		fmt.Fprintf(w, "repeat: and %d more elements\n", len(r.Repeats)-maxReviewLines)
	}
	if rc != nil {
		by := ""
		if rc.SubmittedBy != "" {
			by = " by " + rc.SubmittedBy
		}
		termsafe.Fprintf(w, "receipt: %s, submission %s, submitted%s at %s\n", rc.File, rc.Submission, by, rc.SubmittedAt.Format(time.RFC3339))
		for _, line := range rc.Reading {
			termsafe.Fprintf(w, "receipt reading: %s\n", line)
		}
		if len(rc.Chunks) > 1 {
			termsafe.Fprintf(w, "receipt: the submission made bulks %s: review each\n", strings.Join(rc.BulkIDs(), ", "))
		}
	}
	named := 0
	for _, d := range r.Differences {
		if d.Index != nil {
			// Elements are named up to a few: one element added early
			// can make many differ.
			if named++; named > maxElementDifferences {
				continue
			}
		}
		termsafe.Fprintf(w, "DIFFERENCE (%s): %s\n", d.What, d.Text)
	}
	if more := named - maxElementDifferences; more > 0 {
		word := "elements"
		if more == 1 {
			word = "element"
		}
		fmt.Fprintf(w, "DIFFERENCE: and %d more %s (-format json names them all)\n", more, word)
	}
	if r.Matches {
		fmt.Fprintln(w, "matches: every element is valid and nothing differs")
	} else {
		fmt.Fprintln(w, "DOES NOT MATCH: do not execute before the differences are explained")
	}
}

// amountText writes a total for people: "EUR 1,234.56", or the invalid
// currencies' sum in minor units.
func amountText(a bulkreview.Amount) string {
	if a.InvalidCurrency {
		return "invalid currency " + strings.Join(a.Codes, "/") + ": " + a.Amount
	}
	return a.Currency + " " + a.Amount
}
