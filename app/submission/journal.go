package submission

import (
	"context"
	"encoding/json"
	"slices"
	"time"
)

// State is where a chunk's submission stands.
type State string

// The states of a journal entry.
const (
	// Planned is written for every chunk of a plan before its first
	// request: nothing was sent yet.
	Planned State = "planned"
	// Sending is written before every attempt: the request may have
	// reached the API, so a resend must carry the same ref.
	Sending State = "sending"
	// Submitted means the API answered 201: BulkID is known.
	Submitted State = "submitted"
	// Failed means the attempts stopped on an error (LastError); sending
	// again, with the same ref, is safe.
	Failed State = "failed"
)

// An Entry is the journal's record of one chunk.
type Entry struct {
	// Ref is the chunk's idempotency-ref and the entry's key.
	Ref string `json:"ref"`
	// Digest identifies the chunk's content, kind and endpoint: entries
	// with the same digest are the same chunk, salted or not.
	Digest string `json:"digest"`
	// Submission is the plan's ID: the entries of one submission share it.
	Submission string `json:"submission"`
	Salt       string `json:"salt,omitempty"`
	Source     string `json:"source,omitempty"`
	Kind       string `json:"kind"`
	BackOffice bool   `json:"backOffice,omitempty"`
	// Chunk is the chunk's index in its plan, of Chunks.
	Chunk  int `json:"chunk"`
	Chunks int `json:"chunks"`
	// Elements are the indexes of the chunk's elements in the operator's
	// request.
	Elements Spans `json:"elements"`
	// PlanElements is how many elements the whole plan holds.
	PlanElements int `json:"planElements"`
	// Sheet and Rows locate the elements in a spreadsheet or CSV file
	// (see Chunk); empty for a JSON body.
	Sheet string `json:"sheet,omitempty"`
	Rows  Spans  `json:"rows,omitempty"`

	State    State `json:"state"`
	Attempts int   `json:"attempts"`
	// BulkID, OperationCount and Path are the API's answer to the chunk.
	BulkID         string `json:"bulkId,omitempty"`
	OperationCount int    `json:"operationCount,omitempty"`
	Path           string `json:"path,omitempty"`
	// LastError explains the last failed attempt; RequestRef is the API's
	// reference for it, and LastStatus the HTTP status of its answer (0
	// when no answer came: the request may or may not have reached it).
	LastError  string `json:"lastError,omitempty"`
	RequestRef string `json:"requestRef,omitempty"`
	LastStatus int    `json:"lastStatus,omitempty"`

	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	// Fingerprints are the fingerprints of the chunk's elements once it is
	// Submitted, FingerprintSize bytes each in the order of the bulk's
	// operations (see Fingerprint): what a later submission is checked
	// against. JSON writes them as one base64 string, 22 bytes an element.
	Fingerprints []byte `json:"fingerprints,omitempty"`
	// Body is the chunk's request body, kept until the chunk is submitted
	// so that an interrupted submission can resume without the file. A
	// journal short of room may drop it.
	Body json.RawMessage `json:"body,omitempty"`
}

// A Journal keeps entries across crashes and reloads. Put must not return
// before the entry is durable: a request is sent only after its entry is.
type Journal interface {
	// Put stores e, replacing the entry with the same Ref.
	Put(ctx context.Context, e Entry) error
	// Entries returns every entry, oldest first.
	Entries(ctx context.Context) ([]Entry, error)
	// Delete removes the entries with the given refs.
	Delete(ctx context.Context, refs ...string) error
}

// Lookup returns the entry with the given ref.
func Lookup(ctx context.Context, j Journal, ref string) (Entry, bool, error) {
	all, err := j.Entries(ctx)
	if err != nil {
		return Entry{}, false, err
	}
	for _, e := range all {
		if e.Ref == ref {
			return e, true, nil
		}
	}
	return Entry{}, false, nil
}

// A Submission groups the entries of one plan, in chunk order.
type Submission struct {
	ID      string
	Entries []Entry
}

// State sums up the submission: Submitted when every chunk is, Failed when
// any failed, otherwise Sending (interrupted or under way).
func (s Submission) State() State {
	all := len(s.Entries) > 0 && len(s.Entries) == s.Entries[0].Chunks
	for _, e := range s.Entries {
		if e.State == Failed {
			return Failed
		}
		if e.State != Submitted {
			all = false
		}
	}
	if all {
		return Submitted
	}
	return Sending
}

// Interrupted reports whether the submission stopped before every chunk
// was submitted: what the console offers to resume.
func (s Submission) Interrupted() bool { return s.State() != Submitted }

// Updated returns when any of the submission's entries last changed.
func (s Submission) Updated() time.Time {
	var t time.Time
	for _, e := range s.Entries {
		if e.Updated.After(t) {
			t = e.Updated
		}
	}
	return t
}

// Submissions groups a journal's entries by submission, newest first.
func Submissions(entries []Entry) []Submission {
	by := make(map[string]*Submission)
	var order []*Submission
	for _, e := range entries {
		s := by[e.Submission]
		if s == nil {
			s = &Submission{ID: e.Submission}
			by[e.Submission] = s
			order = append(order, s)
		}
		s.Entries = append(s.Entries, e)
	}
	out := make([]Submission, len(order))
	for i, s := range order {
		slices.SortFunc(s.Entries, func(a, b Entry) int { return a.Chunk - b.Chunk })
		out[i] = *s
	}
	slices.SortStableFunc(out, func(a, b Submission) int { return b.Updated().Compare(a.Updated()) })
	return out
}

// WithEntry returns entries with e in place of the entry of the same Ref,
// or added last: what a journal's Put makes of what it keeps.
func WithEntry(entries []Entry, e Entry) []Entry {
	for i := range entries {
		if entries[i].Ref == e.Ref {
			entries[i] = e
			return entries
		}
	}
	return append(entries, e)
}

// WithoutEntries returns entries without those whose Ref is in refs: what
// a journal's Delete makes of what it keeps.
func WithoutEntries(entries []Entry, refs []string) []Entry {
	return slices.DeleteFunc(entries, func(e Entry) bool { return slices.Contains(refs, e.Ref) })
}

// Row returns the sheet and file row of the element at position i of the
// entry's chunk (its sequence in the bulk), or "" and 0 when the chunk
// came from a JSON body.
func (e Entry) Row(i int) (sheet string, row int) {
	if e.Sheet == "" {
		return "", 0
	}
	row, ok := e.Rows.At(i)
	if !ok {
		return "", 0
	}
	return e.Sheet, row
}
