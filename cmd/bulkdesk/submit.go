package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/filestore"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/termsafe"
	"github.com/bulkdesk/bulkdesk/schema"
)

const envJournal = "BULKDESK_JOURNAL"

// submitPolicy bounds the retries of each chunk; tests shorten the pauses.
var submitPolicy submission.RetryPolicy

// runSubmit implements "bulkdesk submit": validate a request file, cut it
// into bulks, and submit each exactly once, journalling every step so that
// running the command again resumes instead of duplicating.
func runSubmit(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("submit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var api apiFlags
	api.register(fs)
	kindID := fs.String("kind", "", "bulk kind: "+kindList(schema.KindIDs()))
	var jf journalFlags
	jf.register(fs)
	newBulk := fs.Bool("new-bulk", false, "submit content that was submitted before again, as new bulks")
	validOnly := fs.Bool("valid-only", false, "submit the valid elements and leave the invalid ones out")
	allowRepeats := fs.Bool("allow-repeats", false, "submit elements that earlier bulks hold already, again")
	skipRepeats := fs.Bool("skip-repeats", false, "leave out the elements that earlier bulks hold already")
	partSize := fs.Int("part-size", submission.MaxChunk, "most elements per part, a bulk each")
	fs.IntVar(partSize, "chunk-size", submission.MaxChunk, "the former name of -part-size, still accepted")
	execute := fs.Bool("execute", false, "execute each bulk once submitted")
	mode := fs.String("mode", string(bulkapi.OnFailureContinue), "with -execute: ON_FAILURE_CONTINUE or ON_FAILURE_STOP")
	format := fs.String("format", "text", "output format: text or json")
	receiptFile := fs.String("receipt", "", "write the receipt of the submission to this file, for the checker's \"bulkdesk bulks review -receipt\" (a FILE ending in .html is a page to read and print)")
	submittedBy := fs.String("submitted-by", "", "with -receipt: who submits, as the receipt names the maker (default: the user's login name)")
	var in inputFlags
	in.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: bulkdesk submit -kind KIND -api-url URL [-backoffice [-identity TYPE:ID]] [-journal FILE] [-journal-retention D] [-new-bulk] [-valid-only] [-allow-repeats|-skip-repeats] [-part-size N] [-receipt FILE [-submitted-by NAME]] [-execute] [input flags] FILE")
		fmt.Fprintln(stderr, "\nFILE is read as \"bulkdesk check\" reads it: a workbook (.xlsx), a CSV file or a JSON request")
		fmt.Fprintln(stderr, "body, with the same -sheet, -mapping and import settings. Over 10,000 elements go in parts, a bulk each")
		fmt.Fprintln(stderr, "(-part-size makes them smaller; -chunk-size, its former name, is still accepted). Every part is")
		fmt.Fprintln(stderr, "journalled before it is sent and keeps its idempotency-ref: run the command again to")
		fmt.Fprintln(stderr, "resume an interrupted submission; content already submitted is not sent twice.")
		fmt.Fprintln(stderr, "\nBefore anything is sent, every element is checked against the bulks this journal submitted and the")
		fmt.Fprintln(stderr, "API's own record of the identity's bulks (not yet executed, or executed within 35 days), whoever")
		fmt.Fprintln(stderr, "submitted them: an element found there stops the submission, naming its row and the earlier bulk.")
		fmt.Fprintln(stderr, "-skip-repeats leaves those elements out; -allow-repeats submits them again. The API's record is")
		fmt.Fprintln(stderr, "cached next to the journal (journal.record.json for journal.db): later checks fetch only new bulks.")
		fmt.Fprintln(stderr, "\n-receipt writes what was submitted (file, bulks, body hashes, control totals per currency and per source,")
		fmt.Fprintln(stderr, "how the file was read) as JSON, once every part is submitted: the checker compares it with each bulk.")
		fmt.Fprintln(stderr, credentialsHelp)
		fmt.Fprintln(stderr, "Exit status: 0 submitted, 1 invalid or refused, 2 usage error.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() != 1 || *kindID == "" || (*format != "text" && *format != "json") || *allowRepeats && *skipRepeats {
		fs.Usage()
		return exitUsage
	}
	l := in.contract.lang.tag
	fail := func(code int, format string, a ...any) int {
		termsafe.Fprintln(stderr, "bulkdesk submit:", l.F(format, a...))
		return code
	}
	kind, err := schema.Lookup(*kindID)
	if err != nil {
		return fail(exitUsage, "%s", err)
	}
	if err := in.parsed(fs); err != nil {
		return fail(exitUsage, "%s", err)
	}
	if jf.path == "" {
		return fail(exitUsage, "no journal: pass -journal FILE or set $%s", envJournal)
	}
	path := fs.Arg(0)
	data, err := os.ReadFile(path)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	read, err := readBulkFile(&in, kind, path, data, "submit", stderr)
	if err != nil {
		return fail(exitUsage, "%s", err)
	}
	// How the file is read goes with the notes, before anything is sent:
	// stdout holds the chunks submitted, as text or JSON.
	for _, line := range readingLines(read) {
		termsafe.Fprintln(stderr, line)
	}
	elements, report := read.elements, read.report
	// More than 10,000 elements is no problem here: the plan splits them.
	report.Problems = slices.DeleteFunc(report.Problems, func(p schema.Problem) bool { return p.Code == schema.TooManyElements })
	var only []int
	if !report.Valid() {
		if report.RequestErrors() || !*validOnly {
			for _, p := range firstErrors(report, 10) {
				termsafe.Fprintln(stderr, l.F("%s: %s", problemPlace(p, l), cliMessage(p, l)))
			}
			return fail(exitInvalid, "%s: %s of %s elements are invalid; nothing was sent (see bulkdesk check; -valid-only leaves them out)", path, l.Count(len(report.InvalidElements())), l.Count(len(elements)))
		}
		only = report.ValidElements()
		termsafe.Fprintln(stderr, l.F("leaving out %s: %s", l.Plural(len(report.InvalidElements()), "invalid element", "invalid elements"), indexList(report.InvalidElements(), 20, l)))
	}
	writePlausibility(stderr, report, 10, l)

	ctx, stop := interrupted()
	defer stop()
	client, err := api.client(ctx)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	// The repeat check reads bulks a few at a time: close the connections
	// it leaves open.
	defer client.CloseIdleConnections()
	opts := submission.PlanOptions{BackOffice: api.backOffice, ChunkSize: *partSize, Only: only, Source: filepath.Base(path), Origin: read.origin}
	plan, err := submission.NewPlan(kind, elements, opts)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	// The journal is shared: another submit may use it at the same time
	// (see journalstore).
	journal, err := jf.open(ctx, stderr)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	priors, err := submission.FindPrior(ctx, journal, plan)
	if err != nil {
		return fail(exitInvalid, "%v", err)
	}
	// Chunks submitted before and sent again on purpose (-new-bulk): the
	// repeat check does not stop their elements, which the line printed
	// for each chunk names already.
	deliberate := make(map[int]bool)
	if len(priors) > 0 {
		if *newBulk {
			for _, p := range priors {
				termsafe.Fprintln(stderr, l.F("submitting again as a new bulk: %s", p.WarningIn(l)))
				deliberate[p.Chunk] = true
			}
			opts.Salt = submission.NewSalt()
			if plan, err = submission.NewPlan(kind, elements, opts); err != nil {
				return fail(exitUsage, "%v", err)
			}
		} else if code, stop := checkPriors(ctx, client, journal, plan, priors, stderr, l); stop {
			return code
		}
	}
	if plan, err = checkRepeats(ctx, client, journal, journal.Path(), plan, deliberate, *allowRepeats, *skipRepeats, stderr, l); err != nil {
		if errors.Is(err, errNothingLeft) {
			writeEntries(stdout, *format, nil, read.reading, l)
			fmt.Fprintln(stderr, l.T("every element was submitted before: nothing was sent"))
			if *receiptFile != "" {
				termsafe.Fprintln(stderr, l.F("no receipt was written to %s: there is no bulk to name", *receiptFile))
			}
			return exitOK
		}
		termsafe.Fprintln(stderr, "bulkdesk submit:", l.Say(err))
		return exitInvalid
	}

	s := &submission.Submitter{Sender: client, Journal: journal, Policy: submitPolicy, OnProgress: progressPrinter(stderr, l)}
	entries, err := s.Submit(ctx, plan)
	writeEntries(stdout, *format, entries, read.reading, l)
	if err != nil {
		printAPIError(stderr, "submit", err)
		if errors.Is(err, context.Canceled) {
			fmt.Fprintln(stderr, l.T("interrupted: run the same command again to resume with the same idempotency-refs"))
		}
		return exitInvalid
	}
	if *receiptFile != "" {
		if err := writeReceipt(*receiptFile, plan, entries, elements, read, *submittedBy); err != nil {
			return fail(exitInvalid, "the bulks were submitted, but the receipt was not written: %s", err)
		}
		termsafe.Fprintln(stderr, l.F("receipt: %s", *receiptFile))
	}
	if *execute {
		for _, e := range entries {
			if err := client.Execute(ctx, e.BulkID, bulkapi.ExecuteOptions{Mode: bulkapi.Mode(*mode)}); err != nil {
				var ae *bulkapi.Error
				if errors.As(err, &ae) && ae.Code == "INVALID_STATE" {
					termsafe.Fprintln(stderr, l.F("bulk %s is not SUBMITTED any more: left as it is", e.BulkID))
					continue
				}
				printAPIError(stderr, "submit", err)
				return exitInvalid
			}
			termsafe.Fprintln(stderr, l.F("bulk %s: executing", e.BulkID))
		}
	}
	return exitOK
}

// checkPriors tells the operator about earlier submissions of the same
// content and says whether to stop. Chunks the journal shows submitted are
// skipped by the submitter; what must stop is an old attempt whose answer
// never came, since the API may have forgotten its ref.
func checkPriors(ctx context.Context, client *bulkapi.Client, journal submission.Journal, plan *submission.Plan, priors []submission.Prior, stderr io.Writer, l lang.Tag) (int, bool) {
	now := time.Now()
	all, err := journal.Entries(ctx)
	if err != nil {
		termsafe.Fprintln(stderr, "bulkdesk submit:", err)
		return exitInvalid, true
	}
	if err := submission.CheckOld(ctx, client, priors, all, now); err != nil {
		termsafe.Fprintln(stderr, "bulkdesk submit:", err)
		return exitInvalid, true
	}
	blocked := false
	for _, p := range priors {
		if p.Entry.Ref != plan.Chunks[p.Chunk].Ref {
			// Submitted before under another ref (-new-bulk): sending makes
			// a new bulk, and the repeat check names its elements.
			continue
		}
		termsafe.Fprintln(stderr, l.F("already: %s", p.WarningIn(l)))
		if p.Old(now) && p.Reached() && p.Entry.State != submission.Submitted {
			blocked = true
		}
	}
	if blocked {
		fmt.Fprintln(stderr, "bulkdesk submit:", l.T("an attempt older than 24 hours never got its answer, and the API may have forgotten its idempotency-ref; check the bulks named above, then pass -new-bulk to submit anyway"))
		return exitInvalid, true
	}
	return exitOK, false
}

func progressPrinter(w io.Writer, l lang.Tag) func(submission.Progress) {
	return func(p submission.Progress) {
		e := p.Entry
		switch {
		case p.Wait > 0:
			termsafe.Fprintln(w, l.F("part %d/%d: %s; retrying in %s with the same ref", e.Chunk+1, e.Chunks, e.LastError, l.Localize(p.Wait.Round(time.Millisecond).String())))
		case e.State == submission.Sending:
			fmt.Fprintln(w, l.F("part %d/%d: sending %s (attempt %d)", e.Chunk+1, e.Chunks, l.Plural(e.Elements.Len(), "element", "elements"), e.Attempts))
		case e.State == submission.Submitted:
			termsafe.Fprintln(w, l.F("part %d/%d: bulk %s, %s (%d of %d parts done)", e.Chunk+1, e.Chunks, e.BulkID, l.Plural(e.OperationCount, "operation", "operations"), p.Done, e.Chunks))
		}
	}
}

// entryJSON is one part in "submit -format json".
type entryJSON struct {
	Part           int    `json:"part"`
	FirstElement   int    `json:"firstElement"`
	Elements       int    `json:"elements"`
	State          string `json:"state"`
	BulkID         string `json:"bulkId,omitempty"`
	OperationCount int    `json:"operationCount,omitempty"`
	Ref            string `json:"idempotencyRef"`
	Error          string `json:"error,omitempty"`
	// Reading is how the file was read: the same for every part.
	Reading *reading.Reading `json:"reading,omitempty"`
}

// writeEntries writes the parts submitted; in JSON each carries how the
// file was read (r, nil for a request body), so that a script keeps it
// with the bulks it made.
func writeEntries(w io.Writer, format string, entries []submission.Entry, r *reading.Reading, l lang.Tag) {
	out := make([]entryJSON, 0, len(entries))
	for _, e := range entries {
		first, _ := e.Elements.At(0)
		out = append(out, entryJSON{Part: e.Chunk + 1, FirstElement: first, Elements: e.Elements.Len(), State: string(e.State), BulkID: e.BulkID, OperationCount: e.OperationCount, Ref: e.Ref, Error: e.LastError, Reading: r})
	}
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(out)
		return
	}
	for _, e := range out {
		state, ok := entryStates[submission.State(e.State)]
		if !ok {
			state = e.State
		}
		line := l.F("part %d: %s from element %d: %s", e.Part, l.Plural(e.Elements, "element", "elements"), e.FirstElement, l.T(state))
		if e.BulkID != "" {
			line = l.F("%s, bulk %s (%s)", line, e.BulkID, l.Plural(e.OperationCount, "operation", "operations"))
		}
		termsafe.Fprintln(w, line)
	}
}

// entryStates name the states of a journal's entry, for the catalogs.
var entryStates = map[submission.State]string{
	submission.Planned:   lang.Mark("planned"),
	submission.Sending:   lang.Mark("sending"),
	submission.Submitted: lang.Mark("submitted"),
	submission.Failed:    lang.Mark("failed"),
}

// writePlausibility writes the first n plausibility warnings (amounts
// far above the others or above -max-amount, ids of different lengths,
// currencies that are not ISO 4217 codes): they do not stop a
// submission, but the operator sees them.
func writePlausibility(w io.Writer, r *schema.Report, n int, l lang.Tag) {
	k := 0
	for _, p := range r.Problems {
		switch p.Code {
		case ingest.AmountOutlierCode, ingest.AmountAboveLimitCode, ingest.IDLengthCode, schema.CurrencyCode:
		default:
			continue
		}
		if p.Severity != schema.Warning {
			continue // -strict made it an error: the element is not sent
		}
		if k < n {
			termsafe.Fprintln(w, l.F("%s: %s: %s", l.T("warning"), problemPlace(p, l), p.Message))
		}
		k++
	}
	if k > n {
		fmt.Fprintln(w, l.F("warning: and %s more such warnings (see bulkdesk check)", l.Count(k-n)))
	}
}

func firstErrors(r *schema.Report, n int) []schema.Problem {
	errs := r.Errors()
	return errs[:min(n, len(errs))]
}

// indexList writes at most n indexes, "2, 5, 9 and 12 more".
func indexList(idx []int, n int, l lang.Tag) string {
	var b strings.Builder
	for i, x := range idx[:min(n, len(idx))] {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(x))
	}
	if len(idx) > n {
		b.WriteString(l.F(" and %s more", l.Count(len(idx)-n)))
	}
	return b.String()
}

// errNothingLeft says -skip-repeats left nothing to send.
var errNothingLeft = errors.New("nothing left to send")

// repeatLines is how many repeated elements are named before a count.
const repeatLines = 20

// checkRepeats checks the elements the plan would send against the
// journal's bulks and the API's record, and returns the plan to send:
// unchanged, or without the repeats (skip). Without allow or skip,
// repeats stop the submission with an error naming them.
func checkRepeats(ctx context.Context, client *bulkapi.Client, journal submission.Journal, journalPath string, plan *submission.Plan, deliberate map[int]bool, allow, skip bool, stderr io.Writer, l lang.Tag) (*submission.Plan, error) {
	now := time.Now()
	all, err := journal.Entries(ctx)
	if err != nil {
		return nil, err
	}
	sent := submission.Sent(plan, all)
	if !slices.Contains(sent, true) {
		return plan, nil // every chunk was submitted under its ref: nothing is sent
	}
	cache := filestore.NewRecordCache(filestore.RecordPathFor(journalPath))
	record, err := submission.UpdateRecord(ctx, client, cache, client.BaseURL(), now, plan.Kind, nil)
	if err != nil {
		if !allow {
			return nil, lang.Errorf("checking for elements submitted before, against the API's record of bulks: %s; nothing was sent (-allow-repeats submits without this check)", err)
		}
		termsafe.Fprintln(stderr, l.F("warning: the API's record of bulks could not be read (%s): only this journal was checked for repeats", err))
		record = nil
	}
	repeats := slices.DeleteFunc(submission.FindRepeats(plan, all, record, now), func(r submission.Repeat) bool { return deliberate[r.Chunk] })
	if len(repeats) == 0 {
		return plan, nil
	}
	toSend := 0
	for i, sent := range sent {
		if sent && !deliberate[i] {
			toSend += plan.Chunks[i].Count()
		}
	}
	bulks := submission.RepeatedBulks(repeats)
	summary := l.F("%s of the %s elements to send were submitted before, in %s %s", l.Count(len(repeats)), l.Count(toSend), l.Plural(len(bulks), "bulk", "bulks"), indexWords(bulks, 10, l))
	switch {
	case allow:
		termsafe.Fprintln(stderr, l.F("submitting again (-allow-repeats): %s", summary))
		return plan, nil
	case skip:
		drop := make([]int, len(repeats))
		for i, r := range repeats {
			drop[i] = r.Element
		}
		termsafe.Fprintln(stderr, l.F("leaving out (-skip-repeats): %s", summary))
		left, err := plan.Without(drop)
		if err != nil {
			return nil, err
		}
		if len(left.Chunks) == 0 {
			return nil, errNothingLeft
		}
		return left, nil
	}
	for _, r := range repeats[:min(repeatLines, len(repeats))] {
		line := l.F("%s was submitted before in %s", r.PlaceIn(l), r.Earlier.DescribeIn(l))
		if r.Others > 0 {
			line = l.F("%s (and in %s more)", line, l.Plural(r.Others, "bulk", "bulks"))
		}
		termsafe.Fprintln(stderr, l.F("repeat: %s", line))
	}
	if len(repeats) > repeatLines {
		fmt.Fprintln(stderr, l.F("repeat: and %s", l.Plural(len(repeats)-repeatLines, "more element", "more elements")))
	}
	return nil, lang.Errorf("%s; nothing was sent. Pass -skip-repeats to leave them out, or -allow-repeats to submit them again", summary)
}

// indexWords writes at most n words, "a, b and 3 more".
func indexWords(words []string, n int, l lang.Tag) string {
	s := strings.Join(words[:min(n, len(words))], ", ")
	if len(words) > n {
		s += l.F(" and %s more", l.Count(len(words)-n))
	}
	return s
}

// plural writes "1 bulk" or "3 bulks".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// writeReceipt writes the receipt of a submitted plan for the checker.
func writeReceipt(path string, plan *submission.Plan, entries []submission.Entry, elements []any, read *checked, by string) error {
	if by == "" {
		if u, err := user.Current(); err == nil {
			by = u.Username
		}
	}
	d := bulkreview.Declared{File: plan.Source, SubmittedBy: by}
	if read.reading != nil {
		for _, st := range reading.Describe(*read.reading, read.currency, lang.English) {
			d.Reading = append(d.Reading, st.Text)
		}
	}
	rc, err := bulkreview.NewReceipt(plan, entries, elements, d)
	if err != nil {
		return err
	}
	write := rc.MarshalIndent
	if strings.EqualFold(filepath.Ext(path), ".html") {
		write = rc.HTML // a page to read and print, its JSON included
	}
	data, err := write()
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o600)
}
