package apijobs

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/memstore"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/handoff"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
	"github.com/bulkdesk/bulkdesk/schema"
)

// keepPlans is how many prepared plans wait for their confirmation.
const keepPlans = 4

// submitState is the worker's side of submission: the plans waiting for
// the operator's confirmation, the refs being sent, and the journal.
type submitState struct {
	mu       sync.Mutex
	plans    map[string]*submission.Plan
	order    []string
	inflight map[string]bool
	// repeats are the repeated elements each kept plan's confirmation
	// showed; record keeps the API's record of bulks between checks.
	repeats map[string][]int
	record  submission.RecordCache

	journalMu sync.Mutex
	journal   submission.Journal
	storage   string
}

func newSubmitState() *submitState {
	return &submitState{plans: make(map[string]*submission.Plan), inflight: make(map[string]bool), repeats: make(map[string][]int)}
}

// journal opens the journal on first use: IndexedDB in the browser (see
// OpenJournal), memory where none is set. A failure to open is not kept:
// the next job tries again.
func (s *Server) journal(ctx context.Context) (submission.Journal, string, error) {
	st := s.submit
	st.journalMu.Lock()
	defer st.journalMu.Unlock()
	if st.journal != nil {
		return st.journal, st.storage, nil
	}
	if s.OpenJournal == nil {
		st.journal, st.storage = memstore.NewJournal(), "memory"
		return st.journal, st.storage, nil
	}
	// Opened for every job to come: the first one's cancel must not stop it.
	j, storage, err := s.OpenJournal(context.WithoutCancel(ctx))
	if err != nil {
		return nil, "", s.Failure(wire.CodeUnavailable, lang.Errorf("the submission journal cannot be opened, so nothing can be sent safely: %s", s.Reason(err)))
	}
	st.journal, st.storage = j, storage
	return j, storage, nil
}

// keep stores a plan for JobSubmit, with the repeated elements its
// confirmation showed, forgetting the oldest.
func (st *submitState) keep(p *submission.Plan, repeats []int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if _, ok := st.plans[p.ID]; !ok {
		st.order = append(st.order, p.ID)
	}
	st.plans[p.ID] = p
	st.repeats[p.ID] = repeats
	for len(st.order) > keepPlans {
		delete(st.plans, st.order[0])
		delete(st.repeats, st.order[0])
		st.order = st.order[1:]
	}
}

// confirmed returns the repeated elements the plan's confirmation showed.
func (st *submitState) confirmed(id string) []int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.repeats[id]
}

func (st *submitState) plan(id string) (*submission.Plan, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	p, ok := st.plans[id]
	if !ok {
		return nil, lang.Errorf("this confirmation is no longer held: open the submission again")
	}
	return p, nil
}

// claim marks the plan's refs as being sent; false when one already is,
// in another job of this worker (a second press, a second tab's resume).
func (st *submitState) claim(p *submission.Plan) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, c := range p.Chunks {
		if st.inflight[c.Ref] {
			return false
		}
	}
	for _, c := range p.Chunks {
		st.inflight[c.Ref] = true
	}
	return true
}

func (st *submitState) release(p *submission.Plan) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, c := range p.Chunks {
		delete(st.inflight, c.Ref)
	}
}

func (st *submitState) sending(refs ...string) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, r := range refs {
		if st.inflight[r] {
			return true
		}
	}
	return false
}

// planSubmission runs handoff.PlanSubmissionJob: the first worker checked
// the document (wire.JobPrepareSubmission); here the plan is made and
// checked against the journal and the API's record of bulks.
func (s *Server) planSubmission(c *runner.Call) (any, error) {
	var ps handoff.PlanSubmission
	if err := c.Decode(&ps); err != nil {
		return nil, err
	}
	req := ps.Request
	s.words.use(ps.Lang)
	elements, err := decodeElements(c.Data)
	if err != nil {
		return nil, err
	}
	out, plan := s.newPlan(ps, elements)
	if plan == nil {
		return out, nil
	}
	j, _, err := s.journal(c.Context())
	if err != nil {
		return nil, err
	}
	priors, err := submission.FindPrior(c.Context(), j, plan)
	if err != nil {
		return nil, err
	}
	if req.Connection != nil && len(priors) > 0 {
		s.checkOld(c.Context(), *req.Connection, j, priors)
	}
	deliberate := make(map[int]bool)
	for _, p := range priors {
		sameRef := p.Entry.Ref == plan.Chunks[p.Chunk].Ref
		if !sameRef && !req.NewBulk {
			// Submitted before under another ref: sending makes a new
			// bulk, and the repeats below name its elements.
			continue
		}
		if req.NewBulk {
			deliberate[p.Chunk] = true
		}
		out.Priors = append(out.Priors, wire.PriorInfo{
			Chunk: p.Chunk, Submission: p.Entry.Submission, State: string(p.Entry.State), BulkID: p.Entry.BulkID,
			SameRef: sameRef, Warning: wire.Sentence(p.WarningIn(s.words.tag())),
		})
	}
	var cl *bulkapi.Client
	var conn wire.Connection
	if req.Connection != nil {
		conn = *req.Connection
		conn.BackOffice = plan.BackOffice
		cl, _ = s.client(conn)
	}
	rc, err := s.checkRepeats(c, conn, cl, j, plan, deliberate)
	if err != nil {
		return nil, err
	}
	out.Repeats = rc.info()
	s.submit.keep(plan, rc.elements())
	return out, nil
}

// checkOld looks earlier submissions older than the API's memory of refs
// up in the bulk list. It is best effort: without an answer the warning
// names the bulk the journal knows.
func (s *Server) checkOld(ctx context.Context, conn wire.Connection, j submission.Journal, priors []submission.Prior) {
	cl, fail := s.client(conn)
	if fail != nil {
		return
	}
	all, err := j.Entries(ctx)
	if err != nil {
		return
	}
	_ = submission.CheckOld(ctx, cl, priors, all, time.Now())
}

// newPlan cuts the elements into chunks as the first worker's
// confirmation and the page's request say.
func (s *Server) newPlan(ps handoff.PlanSubmission, elements []any) (wire.Confirmation, *submission.Plan) {
	out, req := ps.Confirmation, ps.Request
	k, err := schema.Lookup(out.Kind)
	if err != nil {
		out.Blocked = s.said(err)
		return out, nil
	}
	opts := submission.PlanOptions{BackOffice: out.BackOffice, ChunkSize: req.ChunkSize, Source: out.FileName, Only: ps.Only}
	if len(ps.Origins) == len(elements) {
		opts.Origin = func(i int) (string, int) { return ps.Origins[i].Sheet, ps.Origins[i].Row }
	}
	if req.NewBulk {
		opts.Salt = submission.NewSalt()
	}
	plan, err := submission.NewPlan(k, elements, opts)
	if err != nil {
		out.Blocked = s.said(err)
		return out, nil
	}
	out.Plan, out.Sending = plan.ID, plan.Elements
	for i := range plan.Chunks {
		out.Chunks = append(out.Chunks, chunkInfo(&plan.Chunks[i]))
	}
	out.Totals = wire.TotalsOf(submission.ControlTotals(plan, elements).Amounts)
	return out, plan
}

// chunkInfo describes a planned chunk.
func chunkInfo(c *submission.Chunk) wire.ChunkInfo {
	n := c.Count()
	ci := wire.ChunkInfo{Index: c.Index, Elements: n, Ref: c.Ref, Sheet: c.Sheet, Bytes: len(c.Body)}
	ci.First, _ = c.Elements.At(0)
	ci.Last, _ = c.Elements.At(n - 1)
	if c.Sheet != "" {
		ci.FirstRow, _ = c.Rows.At(0)
		ci.LastRow, _ = c.Rows.At(n - 1)
	}
	return ci
}

// submitPlan runs wire.JobSubmit.
func (s *Server) submitPlan(c *runner.Call) (any, error) {
	var req wire.Submit
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	plan, err := s.submit.plan(req.Plan)
	if err != nil {
		return nil, s.Failure(wire.CodeGone, err)
	}
	return s.send(c, plan, req.Connection, req.Repeats, s.submit.confirmed(plan.ID))
}

// resumeSubmission runs wire.JobResumeSubmission.
func (s *Server) resumeSubmission(c *runner.Call) (any, error) {
	var req wire.ResumeSubmission
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	_, sub, err := s.journalSubmission(c.Context(), req.Submission)
	if err != nil {
		return nil, err
	}
	plan, err := submission.PlanFromJournal(sub.Entries)
	if err != nil {
		return wire.Submitted{Submission: submissionInfo(sub), Failure: setupFailure(s.said(err))}, nil
	}
	return s.send(c, plan, req.Connection, req.Repeats, nil)
}

// send submits a plan's chunks not yet submitted, reporting each step.
// First it checks the elements for repeats once more (a colleague may
// have submitted them since the confirmation), and applies the operator's
// answer (see answerRepeats).
func (s *Server) send(c *runner.Call, plan *submission.Plan, conn wire.Connection, answer string, confirmed []int) (wire.Submitted, error) {
	ctx := c.Context()
	j, _, err := s.journal(ctx)
	if err != nil {
		return wire.Submitted{}, err
	}
	conn.BackOffice = plan.BackOffice // the plan says which API takes it
	cl, fail := s.client(conn)
	if fail != nil {
		return wire.Submitted{Submission: s.journalInfo(ctx, j, plan), Failure: fail}, nil
	}
	if conn.Proxy {
		// The console's server records the file with the bulk.
		cl = cl.WithFileName(plan.Source)
	}
	deliberate, err := deliberateChunks(ctx, j, plan)
	if err != nil {
		return wire.Submitted{}, err
	}
	rc, err := s.checkRepeats(c, conn, cl, j, plan, deliberate)
	if err != nil {
		return wire.Submitted{}, err
	}
	toSend, repeats, err := answerRepeats(plan, rc, answer, confirmed)
	if err != nil {
		return wire.Submitted{}, err
	}
	switch {
	case toSend == nil:
		return wire.Submitted{Submission: s.journalInfo(ctx, j, plan), Repeats: repeats}, nil
	case len(toSend.Chunks) == 0: // every element left out: nothing to send
		return wire.Submitted{Submission: wire.SubmissionInfo{ID: toSend.ID, Source: plan.Source, Kind: plan.Kind.ID, BackOffice: plan.BackOffice, State: string(submission.Submitted)}, Repeats: repeats}, nil
	}
	plan = toSend
	if !s.submit.claim(plan) {
		return wire.Submitted{}, s.Failure(wire.CodeBadRequest, lang.Errorf("this submission is being sent already"))
	}
	defer s.submit.release(plan)

	total := len(plan.Chunks)
	watch := newRepeatWatch(cl, j, plan)
	sub := submission.Submitter{
		Sender:  watch,
		Journal: j,
		OnProgress: func(p submission.Progress) {
			pr := wire.Progress{Phase: wire.PhaseSubmitting, Done: p.Done, Total: total, Detail: progressDetail(p, total)}
			if p.Wait > 0 {
				c.ProgressNow(pr) // the operator sees why nothing moves
				return
			}
			c.Progress(pr)
		},
	}
	c.Progress(wire.Progress{Phase: wire.PhaseSubmitting, Total: total, Detail: fmt.Sprintf("Recording %s in the journal", wire.Plural(total, "part", "parts"))})
	_, err = sub.Submit(ctx, plan)
	out := wire.Submitted{Submission: s.journalInfo(context.WithoutCancel(ctx), j, plan), Existing: watch.found, Repeats: repeats}
	if err == nil {
		return out, nil
	}
	if canceled(ctx, err) {
		return out, ctx.Err()
	}
	var ce *submission.ChunkError
	if !errors.As(err, &ce) {
		return out, err // the journal failed: nothing is sent without it
	}
	chunk := &plan.Chunks[ce.Chunk]
	out.Failure = s.failureOf(ce.Err, func(k int) (int, string, int) {
		el, _ := chunk.Elements.At(k)
		row, _ := chunk.Rows.At(k)
		return el, chunk.Sheet, row
	})
	out.Failure.Chunk, out.Failure.Ref = ce.Chunk, ce.Ref
	return out, nil
}

// progressDetail says what a submission step is doing.
func progressDetail(p submission.Progress, total int) string {
	e := p.Entry
	which := fmt.Sprintf("Part %d of %d", p.Chunk+1, total)
	switch {
	case p.Wait > 0:
		return fmt.Sprintf("%s: %s; trying again in %s with the same idempotency-ref", which, e.LastError, p.Wait.Round(100*time.Millisecond))
	case e.State == submission.Submitted:
		return fmt.Sprintf("%s submitted as bulk %s (%s)", which, e.BulkID, wire.Plural(e.OperationCount, "operation", "operations"))
	case e.Attempts > 1:
		return fmt.Sprintf("Sending %s (%s), attempt %d", lower(which), wire.Plural(e.Elements.Len(), "element", "elements"), e.Attempts)
	}
	return fmt.Sprintf("Sending %s (%s)", lower(which), wire.Plural(e.Elements.Len(), "element", "elements"))
}

func lower(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]|0x20) + s[1:]
}

// journalInfo describes the plan's submission as the journal holds it.
func (s *Server) journalInfo(ctx context.Context, j submission.Journal, plan *submission.Plan) wire.SubmissionInfo {
	sub, found, err := findSubmission(ctx, j, plan.ID)
	if err != nil || !found {
		info := wire.SubmissionInfo{ID: plan.ID, Source: plan.Source, Kind: plan.Kind.ID, BackOffice: plan.BackOffice, State: string(submission.Planned), Elements: plan.Elements}
		for i := range plan.Chunks {
			info.Chunks = append(info.Chunks, chunkInfo(&plan.Chunks[i]))
		}
		return info
	}
	return submissionInfo(sub)
}

// journalSubmission opens the journal and finds submission id in it.
func (s *Server) journalSubmission(ctx context.Context, id string) (submission.Journal, submission.Submission, error) {
	j, _, err := s.journal(ctx)
	if err != nil {
		return nil, submission.Submission{}, err
	}
	sub, found, err := findSubmission(ctx, j, id)
	if err == nil && !found {
		err = s.noSubmission(id)
	}
	return j, sub, err
}

// noSubmission is the error of a submission the journal does not hold.
func (s *Server) noSubmission(id string) error {
	return s.Failure(wire.CodeGone, lang.Errorf("the journal holds no submission %s", id))
}

// findSubmission returns the journal's submission with the given id, and
// whether the journal holds it.
func findSubmission(ctx context.Context, j submission.Journal, id string) (submission.Submission, bool, error) {
	all, err := j.Entries(ctx)
	if err != nil {
		return submission.Submission{}, false, err
	}
	for _, sub := range submission.Submissions(all) {
		if sub.ID == id {
			return sub, true, nil
		}
	}
	return submission.Submission{}, false, nil
}

// submissionInfo describes a submission of the journal.
func submissionInfo(sub submission.Submission) wire.SubmissionInfo {
	first := sub.Entries[0]
	info := wire.SubmissionInfo{
		ID: sub.ID, Source: first.Source, Kind: first.Kind, BackOffice: first.BackOffice,
		State: string(sub.State()), Interrupted: sub.Interrupted(), Elements: first.PlanElements,
		Created: first.Created, Updated: sub.Updated(),
	}
	if info.Interrupted {
		_, err := submission.PlanFromJournal(sub.Entries)
		info.Resumable = err == nil
	}
	for _, e := range sub.Entries {
		if e.Created.Before(info.Created) {
			info.Created = e.Created
		}
		n := e.Elements.Len()
		ci := wire.ChunkInfo{
			Index: e.Chunk, Elements: n, Ref: e.Ref, Sheet: e.Sheet, State: string(e.State), Attempts: e.Attempts,
			BulkID: e.BulkID, OperationCount: e.OperationCount, LastError: e.LastError, RequestRef: e.RequestRef,
		}
		ci.First, _ = e.Elements.At(0)
		ci.Last, _ = e.Elements.At(n - 1)
		if e.Sheet != "" {
			ci.FirstRow, _ = e.Rows.At(0)
			ci.LastRow, _ = e.Rows.At(n - 1)
		}
		info.Chunks = append(info.Chunks, ci)
	}
	return info
}

// listJournal runs wire.JobJournal.
func (s *Server) listJournal(c *runner.Call) (any, error) {
	j, storage, err := s.journal(c.Context())
	if err != nil {
		return nil, err
	}
	return journalList(c.Context(), j, storage)
}

func journalList(ctx context.Context, j submission.Journal, storage string) (wire.JournalList, error) {
	all, err := j.Entries(ctx)
	if err != nil {
		return wire.JournalList{}, err
	}
	out := wire.JournalList{Storage: storage, Submissions: []wire.SubmissionInfo{}}
	for _, sub := range submission.Submissions(all) {
		out.Submissions = append(out.Submissions, submissionInfo(sub))
	}
	return out, nil
}

// forgetSubmission runs wire.JobForgetSubmission.
func (s *Server) forgetSubmission(c *runner.Call) (any, error) {
	var req wire.ForgetSubmission
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	j, storage, err := s.journal(c.Context())
	if err != nil {
		return nil, err
	}
	sub, found, err := findSubmission(c.Context(), j, req.Submission)
	switch {
	case err != nil:
		return nil, err
	case !found:
		return nil, s.noSubmission(req.Submission)
	}
	refs := make([]string, len(sub.Entries))
	for i, e := range sub.Entries {
		refs[i] = e.Ref
	}
	if s.submit.sending(refs...) {
		return nil, s.Failure(wire.CodeBadRequest, lang.Errorf("this submission is being sent: stop it first"))
	}
	if err := j.Delete(c.Context(), refs...); err != nil {
		return nil, err
	}
	return journalList(c.Context(), j, storage)
}

// accessToken runs wire.JobAccessToken.
func (s *Server) accessToken(c *runner.Call) (any, error) {
	var req wire.AccessTokenRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	id, err := bulkapi.ParseIdentity(req.Identity)
	if err != nil {
		return wire.AccessToken{Failure: setupFailure(s.said(err))}, nil
	}
	conn := req.Connection
	cl, err := bulkapi.New(bulkapi.Config{BaseURL: conn.APIURL, BackOfficeURL: conn.BackOfficeURL, APIKey: conn.APIKey, Transport: s.Transport})
	if err == nil {
		cl, err = cl.BackOffice()
	}
	if err != nil {
		return wire.AccessToken{Failure: setupFailure(s.said(err))}, nil
	}
	if conn.NeedsAPIKey() {
		return wire.AccessToken{Failure: credentialsMissing("No api-key is set: the back-office API needs it to issue a token.")}, nil
	}
	tok, err := cl.AccessToken(c.Context(), id)
	if err != nil {
		return wire.AccessToken{Failure: s.failureOf(err, nil)}, nil
	}
	return wire.AccessToken{Token: tok.Token, Identity: tok.Identity.String()}, nil
}
