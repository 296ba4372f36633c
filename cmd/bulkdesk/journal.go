package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/termsafe"
)

// defaultRetention is how long a submission stays in the command line's
// journal after its last change: well past the API's 24-hour ref memory.
const defaultRetention = 35 * 24 * time.Hour

// cliJournal is the command line's journal (journalstore.Store).
type cliJournal interface {
	submission.Journal
	Path() string
	// Forget removes every entry of a submission in one transaction.
	Forget(ctx context.Context, id string) (int, error)
}

// retentionFlag is a duration that also takes whole days ("35d").
type retentionFlag time.Duration

func (r retentionFlag) String() string {
	d := time.Duration(r)
	if d > 0 && d%(24*time.Hour) == 0 {
		return strconv.FormatInt(int64(d/(24*time.Hour)), 10) + "d"
	}
	return d.String()
}

func (r *retentionFlag) Set(s string) error {
	var d time.Duration
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseUint(days, 10, 16)
		if err != nil {
			return fmt.Errorf("not a number of days: %q", s)
		}
		d = time.Duration(n) * 24 * time.Hour
	} else {
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			return fmt.Errorf("not a duration such as 35d or 72h: %q", s)
		}
	}
	if d < 0 {
		return fmt.Errorf("a negative retention: %q", s)
	}
	*r = retentionFlag(d)
	return nil
}

// journalFlags are the flags that name and keep the journal, shared by
// submit and journal.
type journalFlags struct {
	path      string
	retention retentionFlag
}

func (j *journalFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&j.path, "journal", defaultJournal(), "journal database (default $"+envJournal+", else journal.db in the user's config folder); a name ending in .json is an older bulkdesk's journal, imported once into the .db beside it")
	j.retention = retentionFlag(defaultRetention)
	fs.Var(&j.retention, "journal-retention", "forget submissions unchanged for this long, e.g. 35d or 72h; 0 keeps them")
}

func (j *journalFlags) open(ctx context.Context, stderr io.Writer) (cliJournal, error) {
	if j.path == "" {
		return nil, fmt.Errorf("no journal: pass -journal FILE or set $%s", envJournal)
	}
	return openJournal(ctx, j.path, time.Duration(j.retention), stderr)
}

func defaultJournal() string {
	if p := os.Getenv(envJournal); p != "" {
		return p
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	// Beside journal.json, the older bulkdesk's journal, which it imports.
	return filepath.Join(dir, "bulkdesk", "journal.db")
}

// stdinIsTerminal reports whether r is a terminal a person answers at;
// tests replace it.
var stdinIsTerminal = func(r io.Reader) bool {
	// Not a character-device test: /dev/null is one, and nobody answers.
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// runJournal implements "bulkdesk journal": list the submissions the
// command line's journal holds, or forget one.
func runJournal(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	usage := func() {
		fmt.Fprintln(stderr, "usage: bulkdesk journal list [-format text|json]")
		fmt.Fprintln(stderr, "       bulkdesk journal forget [-yes] ID")
		fmt.Fprintln(stderr, "\nEach also takes -journal FILE and -journal-retention DURATION, as submit does.")
		fmt.Fprintln(stderr, "list shows each submission: its file, kind, parts, idempotency-refs, bulks, states and times.")
		fmt.Fprintln(stderr, "forget removes a submission (ID or a unique start of it) after asking; -yes does not ask.")
		fmt.Fprintln(stderr, "Exit status: 0 done, 1 not found or not confirmed, 2 usage error.")
	}
	if len(args) == 0 || (args[0] != "list" && args[0] != "forget") {
		usage()
		return exitUsage
	}
	verb := args[0]
	fs := flag.NewFlagSet("journal "+verb, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		usage()
		fs.PrintDefaults()
	}
	var jf journalFlags
	jf.register(fs)
	format := fs.String("format", "text", "list: output format, text or json")
	yes := fs.Bool("yes", false, "forget: do not ask for confirmation")
	if err := fs.Parse(args[1:]); err != nil {
		return exitUsage
	}
	if (verb == "list") != (fs.NArg() == 0) || fs.NArg() > 1 || (*format != "text" && *format != "json") {
		fs.Usage()
		return exitUsage
	}
	fail := func(code int, format string, a ...any) int {
		termsafe.Fprintf(stderr, "bulkdesk journal "+verb+": "+format+"\n", a...)
		return code
	}
	ctx, stop := interrupted()
	defer stop()
	j, err := jf.open(ctx, stderr)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	entries, err := j.Entries(ctx)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	subs := submission.Submissions(entries)
	if verb == "list" {
		writeSubmissions(stdout, *format, subs)
		return exitOK
	}

	s, err := findSubmission(subs, fs.Arg(0))
	if err != nil {
		return fail(exitInvalid, "%v (journal %s)", err, j.Path())
	}
	termsafe.Fprintf(stderr, "submission %s\n", describeSubmission(s))
	if !*yes {
		if !stdinIsTerminal(stdin) {
			return fail(exitUsage, "standard input is not a terminal, so nobody can confirm: pass -yes to forget submission %s", s.ID)
		}
		fmt.Fprint(stderr, "Forget it? Its content will no longer be recognised as submitted: after 24 hours, submitting it again makes new bulks. [y/N] ")
		answer, _ := bufio.NewReader(stdin).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			return fail(exitInvalid, "not confirmed: submission %s is kept", s.ID)
		}
	}
	n, err := j.Forget(ctx, s.ID)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	termsafe.Fprintf(stdout, "forgot submission %s (%d entries)\n", s.ID, n)
	return exitOK
}

// findSubmission finds a submission by its ID or a unique start of it.
func findSubmission(subs []submission.Submission, id string) (submission.Submission, error) {
	var found []submission.Submission
	for _, s := range subs {
		if s.ID == id {
			return s, nil
		}
		if id != "" && strings.HasPrefix(s.ID, id) {
			found = append(found, s)
		}
	}
	switch len(found) {
	case 0:
		return submission.Submission{}, fmt.Errorf("no submission %s", id)
	case 1:
		return found[0], nil
	}
	ids := make([]string, len(found))
	for i, s := range found {
		ids[i] = s.ID
	}
	return submission.Submission{}, errors.New(id + " starts several submissions: " + strings.Join(ids, ", "))
}

// submissionJSON is one submission in "journal list -format json".
type submissionJSON struct {
	ID         string             `json:"id"`
	File       string             `json:"file,omitempty"`
	Kind       string             `json:"kind"`
	BackOffice bool               `json:"backOffice,omitempty"`
	Parts      int                `json:"parts"`
	Elements   int                `json:"elements"`
	State      string             `json:"state"`
	Created    time.Time          `json:"created"`
	Updated    time.Time          `json:"updated"`
	Entries    []journalEntryJSON `json:"entries"`
}

// journalEntryJSON is one part of a submission in "journal list".
type journalEntryJSON struct {
	Part           int       `json:"part"`
	Elements       int       `json:"elements"`
	Ref            string    `json:"idempotencyRef"`
	State          string    `json:"state"`
	Attempts       int       `json:"attempts"`
	BulkID         string    `json:"bulkId,omitempty"`
	OperationCount int       `json:"operationCount,omitempty"`
	Error          string    `json:"error,omitempty"`
	BodyKept       bool      `json:"bodyKept,omitempty"`
	Updated        time.Time `json:"updated"`
}

// submissionState names where a submission stands: submitted, failed or
// unfinished (being sent, or interrupted).
func submissionState(s submission.Submission) string {
	if st := s.State(); st != submission.Sending {
		return string(st)
	}
	return "unfinished"
}

func toSubmissionJSON(s submission.Submission) submissionJSON {
	first := s.Entries[0]
	out := submissionJSON{ID: s.ID, File: first.Source, Kind: first.Kind, BackOffice: first.BackOffice, Parts: first.Chunks,
		Elements: first.PlanElements, State: submissionState(s), Created: first.Created, Updated: s.Updated()}
	for _, e := range s.Entries {
		if e.Created.Before(out.Created) {
			out.Created = e.Created
		}
		out.Entries = append(out.Entries, journalEntryJSON{Part: e.Chunk + 1, Elements: e.Elements.Len(), Ref: e.Ref, State: string(e.State),
			Attempts: e.Attempts, BulkID: e.BulkID, OperationCount: e.OperationCount, Error: e.LastError, BodyKept: len(e.Body) > 0, Updated: e.Updated})
	}
	return out
}

func describeSubmission(s submission.Submission) string {
	j := toSubmissionJSON(s)
	file := j.File
	if file == "" {
		file = "(no file name)"
	}
	kind := j.Kind
	if j.BackOffice {
		kind += " (back office)"
	}
	done := 0
	var bulks []string
	for _, e := range j.Entries {
		if e.State == string(submission.Submitted) {
			done++
		}
		if e.BulkID != "" {
			bulks = append(bulks, e.BulkID)
		}
	}
	line := fmt.Sprintf("%s: %s, %s, %d elements in %d parts, %d submitted: %s", j.ID, file, kind, j.Elements, j.Parts, done, j.State)
	if len(bulks) > 0 {
		line += "; bulks " + strings.Join(bulks, ", ")
	}
	return line
}

// writeSubmissions writes the journal's submissions, newest first.
func writeSubmissions(w io.Writer, format string, subs []submission.Submission) {
	out := make([]submissionJSON, 0, len(subs))
	for _, s := range subs {
		out = append(out, toSubmissionJSON(s))
	}
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(out)
		return
	}
	if len(out) == 0 {
		fmt.Fprintln(w, "the journal holds no submissions")
		return
	}
	const when = "2006-01-02 15:04"
	for i, s := range subs {
		j := out[i]
		if i > 0 {
			fmt.Fprintln(w)
		}
		termsafe.Fprintf(w, "submission %s\n", describeSubmission(s))
		termsafe.Fprintf(w, "  created %s, updated %s\n", j.Created.Local().Format(when), j.Updated.Local().Format(when))
		for _, e := range j.Entries {
			line := fmt.Sprintf("  part %d/%d: %d elements, %s", e.Part, j.Parts, e.Elements, e.State)
			if e.BulkID != "" {
				line += fmt.Sprintf(", bulk %s (%d operations)", e.BulkID, e.OperationCount)
			}
			switch {
			case e.Attempts == 1:
				line += ", 1 attempt"
			case e.Attempts > 1:
				line += fmt.Sprintf(", %d attempts", e.Attempts)
			}
			line += ", ref " + e.Ref
			if e.Error != "" {
				line += ": " + e.Error
			}
			termsafe.Fprintln(w, line)
		}
	}
}
