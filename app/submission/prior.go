package submission

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/lang"
)

// RefMemory is how long the API is sure to remember an idempotency-ref.
// An entry older than this is checked against the bulk list instead.
const RefMemory = 24 * time.Hour

// A Prior is an earlier submission of a chunk of a new plan: same content,
// kind and endpoint, salted or not.
type Prior struct {
	// Chunk is the index of the chunk in the new plan.
	Chunk int
	// Entry is the latest journal entry of the same content.
	Entry Entry
	// Checked is set by CheckOld for an old entry; the fields below are
	// its findings.
	Checked bool
	// Listed is the entry's bulk as the bulk list shows it, or nil.
	Listed *bulkapi.BulkProcess
	// Candidates are listed bulks, unknown to the journal, of the same
	// operation and size: what an interrupted old attempt may have made.
	Candidates []bulkapi.BulkProcess
}

// Old reports whether the entry is older than the API's ref memory.
func (p Prior) Old(now time.Time) bool { return now.Sub(p.Entry.Updated) > RefMemory }

// Reached reports whether the earlier attempt may have created a bulk: it
// was submitted, or a request was sent without a known answer.
func (p Prior) Reached() bool {
	return p.Entry.State == Submitted || p.Entry.State == Sending || p.Entry.Attempts > 0
}

// Warning explains the prior submission to an operator, naming the bulk.
func (p Prior) Warning() string { return p.WarningIn(lang.English) }

// WarningIn is Warning in w's words, with its dates and counts as w
// writes them.
func (p Prior) WarningIn(w lang.Tag) string {
	e := p.Entry
	when := w.Date(e.Updated.Truncate(time.Minute), true)
	where := w.F("part %d", p.Chunk+1)
	var s string
	switch {
	case e.State == Submitted:
		s = w.F("%s was submitted on %s as bulk %s (%s)", where, when, e.BulkID, w.Plural(e.OperationCount, "operation", "operations"))
		if p.Checked && p.Listed != nil {
			s = w.F("%s, now %s", s, StatusWords(p.Listed.Status, w))
		} else if p.Checked {
			s = w.F("%s, which the bulk list no longer shows", s)
		}
	case e.State == Failed && e.LastStatus != 0:
		// The API answered, and refused: nothing was made.
		s = w.F("%s was refused by the API on %s: %s", where, when, e.LastError)
	case p.Reached():
		s = w.F("%s was being submitted on %s and the answer never came (%s)", where, when, w.Plural(e.Attempts, "attempt", "attempts"))
		if len(p.Candidates) > 0 {
			ids := make([]string, len(p.Candidates))
			for i, b := range p.Candidates {
				ids[i] = b.BulkID
			}
			s = w.F("%s; bulks of the same operation and size: %s", s, strings.Join(ids, ", "))
		}
	default:
		s = w.F("%s was planned on %s but never sent", where, when)
	}
	return s
}

// statusWords are the states of bulks as a sentence names them.
var statusWords = map[bulkapi.Status]string{
	bulkapi.Submitted:          lang.Mark("submitted"),
	bulkapi.Running:            lang.Mark("running"),
	bulkapi.Paused:             lang.Mark("paused"),
	bulkapi.Completed:          lang.Mark("completed"),
	bulkapi.PartiallyCompleted: lang.Mark("partially completed"),
	bulkapi.Failed:             lang.Mark("failed"),
	bulkapi.Cancelled:          lang.Mark("cancelled"),
}

// StatusWords names a bulk's state in w, as a sentence does:
// "teilweise abgeschlossen", "en cours"; in English, and for a state it
// does not know, as the API writes it (COMPLETED), which the command
// line's reports have always quoted.
func StatusWords(s bulkapi.Status, w lang.Tag) string {
	if words, ok := statusWords[s]; ok && w != lang.English && w != "" {
		return w.T(words)
	}
	return string(s)
}

// FindPrior returns, for each chunk of plan whose content the journal has
// seen, the latest entry of that content.
func FindPrior(ctx context.Context, j Journal, plan *Plan) ([]Prior, error) {
	entries, err := j.Entries(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the journal: %w", err)
	}
	var out []Prior
	for _, c := range plan.Chunks {
		var best *Entry
		for i := range entries {
			e := &entries[i]
			if e.Digest != c.Digest {
				continue
			}
			if best == nil || rank(e) > rank(best) || rank(e) == rank(best) && e.Updated.After(best.Updated) {
				best = e
			}
		}
		if best != nil {
			out = append(out, Prior{Chunk: c.Index, Entry: *best})
		}
	}
	return out, nil
}

// rank prefers entries that say more about what the API holds.
func rank(e *Entry) int {
	switch e.State {
	case Submitted:
		return 3
	case Sending, Failed:
		return 2
	}
	return 1
}

// A Lister lists bulk processes; *bulkapi.Client is one.
type Lister interface {
	ListAll(ctx context.Context, status bulkapi.Status) ([]bulkapi.BulkProcess, error)
}

// CheckOld looks the old priors (see Prior.Old) up in the bulk list, once
// for all, since the API may have forgotten their refs: a resend would then
// make a second bulk. journal is every entry, to tell known bulks from
// unknown ones.
func CheckOld(ctx context.Context, l Lister, priors []Prior, journal []Entry, now time.Time) error {
	var list []bulkapi.BulkProcess
	listed := false
	known := make(map[string]bool)
	for _, e := range journal {
		if e.BulkID != "" {
			known[e.BulkID] = true
		}
	}
	for i := range priors {
		p := &priors[i]
		if !p.Old(now) || !p.Reached() {
			continue
		}
		if !listed {
			var err error
			if list, err = l.ListAll(ctx, ""); err != nil {
				return fmt.Errorf("checking old submissions against the bulk list: %w", err)
			}
			listed = true
		}
		p.Checked, p.Listed, p.Candidates = true, nil, nil
		k := p.Entry
		for j := range list {
			b := &list[j]
			switch {
			case k.BulkID != "" && b.BulkID == k.BulkID:
				p.Listed = b
			case k.BulkID == "" && !known[b.BulkID] && b.SubmittedItemsCount == k.Elements.Len() && sameOperation(b.Operation, k.Kind):
				p.Candidates = append(p.Candidates, *b)
			}
		}
	}
	return nil
}

// sameOperation reports whether a listed bulk's operation is the kind's;
// the list names it as the single operation's endpoint.
func sameOperation(op, kindID string) bool {
	k, err := lookupKind(kindID)
	switch {
	case err != nil:
		return false
	case op == "": // the API did not say: it may be
		return true
	}
	return strings.Contains(op, k.Operation.Path)
}
