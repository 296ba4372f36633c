package apijobs

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/memstore"
	"github.com/bulkdesk/bulkdesk/app/submission/recordhttp"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
	"github.com/bulkdesk/bulkdesk/schema"
)

// recordCache returns where the API's record of bulks is kept: the
// Server's RecordCache, else memory for the worker's life.
func (s *Server) recordCache() submission.RecordCache {
	st := s.submit
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.record == nil {
		st.record = s.RecordCache
		if st.record == nil {
			st.record = memstore.NewRecordCache()
		}
	}
	return st.record
}

// readRecord reads the API's record of bulks for a repeat check of kind:
// from the console's server when it keeps it (conn.Record), else from
// the API; this worker's cache keeps the fingerprints either way, so that
// only the bulks not seen before are fetched or sent. A failure other than
// the API's refusal is given a second try.
func (s *Server) readRecord(c *runner.Call, conn wire.Connection, cl *bulkapi.Client, kind *schema.Kind) (*submission.Record, error) {
	ctx := c.Context()
	progress := func(done, total int) {
		c.Progress(wire.Progress{Phase: wire.PhaseChecking, Done: done, Total: total, Detail: fmt.Sprintf("Reading the operations of %s not seen before", wire.Plural(total, "bulk", "bulks"))})
	}
	read := func() (*submission.Record, error) {
		if u := conn.RecordURL(); u != "" {
			return recordhttp.Fetch(ctx, &http.Client{Transport: s.Transport}, u, cl.Credentials(), kind, s.recordCache(), progress)
		}
		return submission.UpdateRecord(ctx, cl, s.recordCache(), cl.BaseURL(), time.Now(), kind, progress)
	}
	rec, err := read()
	if _, refused := bulkapi.AsError(err); err != nil && !refused && ctx.Err() == nil {
		// Not the API's answer but a dropped connection, a busy server or
		// the browser's storage: asked once more before the check goes on
		// without the record, which would leave repeats unseen. The first
		// failure is logged, not lost.
		s.Logged("reading the record of bulks again after: " + err.Error())
		rec, err = read()
	}
	return rec, err
}

// repeatCheck is the outcome of checking a plan for repeats.
type repeatCheck struct {
	repeats []submission.Repeat
	toSend  int
	record  bool
	failure string
	// w is the language the check is said in.
	w lang.Tag
}

// checkRepeats checks the plan's elements against the journal and, with
// a client, the API's record of bulks (see readRecord). deliberate
// chunks, submitted again as new bulks on purpose, are not checked. A
// record that cannot be read is said, not fatal: the journal is still
// checked.
func (s *Server) checkRepeats(c *runner.Call, conn wire.Connection, cl *bulkapi.Client, j submission.Journal, plan *submission.Plan, deliberate map[int]bool) (repeatCheck, error) {
	ctx := c.Context()
	now := time.Now()
	all, err := j.Entries(ctx)
	if err != nil {
		return repeatCheck{}, err
	}
	w := s.words.tag()
	out := repeatCheck{w: w}
	var record *submission.Record
	sent := submission.Sent(plan, all)
	if !slices.Contains(sent, true) {
		return out, nil // every chunk was submitted under its ref: nothing is sent
	}
	if cl != nil {
		c.Progress(wire.Progress{Phase: wire.PhaseChecking, Detail: w.T("Checking the API's record of recent bulks for elements submitted before")})
		record, err = s.readRecord(c, conn, cl, plan.Kind)
		switch {
		case canceled(ctx, err):
			return repeatCheck{}, ctx.Err()
		case err != nil:
			out.failure = wire.Sentence(w.F("The API's record of bulks could not be read (%s): only this browser's journal was checked", s.why(err)))
			record = nil
		default:
			out.record = true
		}
	} else {
		out.failure = w.T("No connection is set: only this browser's journal was checked for elements submitted before.")
	}
	for i, sent := range sent {
		if sent && !deliberate[i] {
			out.toSend += plan.Chunks[i].Count()
		}
	}
	out.repeats = slices.DeleteFunc(submission.FindRepeats(plan, all, record, now), func(r submission.Repeat) bool { return deliberate[r.Chunk] })
	return out, nil
}

// info describes the check for the page.
func (rc repeatCheck) info() *wire.RepeatsInfo {
	if len(rc.repeats) == 0 && rc.failure == "" {
		return nil
	}
	out := &wire.RepeatsInfo{Count: len(rc.repeats), ToSend: rc.toSend, Record: rc.record, RecordError: rc.failure, Bulks: submission.RepeatedBulks(rc.repeats)}
	w := rc.w
	for _, r := range rc.repeats[:min(len(rc.repeats), wire.MaxRepeatsShown)] {
		text := w.F("%s was submitted before in %s", capital(r.PlaceIn(w)), r.Earlier.DescribeIn(w))
		if r.Others > 0 {
			text = w.F("%s (and in %s more)", text, w.Plural(r.Others, "bulk", "bulks"))
		}
		out.Elements = append(out.Elements, wire.RepeatInfo{
			Element: r.Element, Sheet: r.Sheet, Row: r.Row, BulkID: r.Earlier.BulkID, Status: string(r.Earlier.Status),
			When: r.Earlier.When, Others: r.Others, Text: text + ".",
		})
	}
	return out
}

func capital(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// elements returns the indexes of the repeated elements.
func (rc repeatCheck) elements() []int {
	out := make([]int, len(rc.repeats))
	for i, r := range rc.repeats {
		out[i] = r.Element
	}
	return out
}

// deliberateChunks returns the chunks of a plan with fresh refs (a
// deliberate "submit again as new bulks") that the journal saw before:
// the operator chose to repeat them.
func deliberateChunks(ctx context.Context, j submission.Journal, plan *submission.Plan) (map[int]bool, error) {
	out := make(map[int]bool)
	if plan.Salt == "" {
		return out, nil
	}
	priors, err := submission.FindPrior(ctx, j, plan)
	if err != nil {
		return nil, err
	}
	for _, p := range priors {
		out[p.Chunk] = true
	}
	return out, nil
}

// answerRepeats applies the operator's answer to the repeats found just
// before sending: the plan to send, or, when repeats stop it, their
// description. confirmed are the repeated elements the confirmation
// showed.
func answerRepeats(plan *submission.Plan, rc repeatCheck, answer string, confirmed []int) (*submission.Plan, *wire.RepeatsInfo, error) {
	if len(rc.repeats) == 0 {
		return plan, nil, nil
	}
	switch answer {
	case wire.RepeatsAgain:
		// Only those the operator saw are submitted again.
		var unseen []submission.Repeat
		for _, r := range rc.repeats {
			if !slices.Contains(confirmed, r.Element) {
				unseen = append(unseen, r)
			}
		}
		if len(unseen) == 0 {
			return plan, nil, nil
		}
		rc.repeats = unseen
	case wire.RepeatsLeaveOut:
		left, err := plan.Without(rc.elements())
		if err != nil {
			return nil, nil, err
		}
		info := rc.info()
		info.LeftOut = true
		return left, info, nil
	}
	info := rc.info()
	info.Stopped = true
	return nil, info, nil
}
