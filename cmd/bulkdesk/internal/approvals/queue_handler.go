package approvals

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkreview"
)

// Bounds of a page of GET four-eyes/bulks.
const (
	DefaultQueueLimit = 100
	MaxQueueLimit     = 500
)

// Queue is the answer of GET four-eyes/bulks?state=awaiting: the bulks
// awaiting a second operator, newest first, the caller's own included
// (MayExecute false).
type Queue struct {
	Rule  bool         `json:"rule"`
	You   string       `json:"you,omitempty"`
	Bulks []QueuedBulk `json:"bulks"`
	// Next, when set, asks for the next page: more bulks may await.
	Next *QueueCursor `json:"next,omitempty"`
	// Message says why the list could not be given.
	Message string `json:"message,omitempty"`
}

// A QueuedBulk is one bulk of the queue, as its record holds it; FileName,
// Kind, Elements and Totals are empty when the server computed no
// receipt of it.
type QueuedBulk struct {
	BulkID      string              `json:"bulkId"`
	SubmittedBy string              `json:"submittedBy"`
	SubmittedAt time.Time           `json:"submittedAt"`
	API         string              `json:"api"`
	FileName    string              `json:"fileName,omitempty"`
	Kind        string              `json:"kind,omitempty"`
	Elements    int                 `json:"elements"`
	Totals      []bulkreview.Amount `json:"totals"`
	MayExecute  bool                `json:"mayExecute"`
}

// QueueCursor is the query of the next page: before and beforeId.
type QueueCursor struct {
	Before   time.Time `json:"before"`
	BeforeID string    `json:"beforeId"`
}

// QueueHandler answers GET four-eyes/bulks?state=awaiting[&limit=N]
// [&before=TIME[&beforeId=ID]] for the console: a page of the bulks
// recorded and neither executed nor cancelled through the server, for
// the signed-in operator (user reads it from the request's context).
// The records alone answer: a bulk executed or cancelled around the
// server stays listed until someone tries to execute it. rule nil
// answers {"rule":false}.
func QueueHandler(rule *Rule, user func(context.Context) string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rule == nil {
			reply(w, http.StatusOK, map[string]bool{"rule": false})
			return
		}
		you := user(r.Context())
		p, problem := queuePage(r)
		if problem != "" {
			reply(w, http.StatusBadRequest, Queue{Rule: true, You: you, Message: problem})
			return
		}
		// One more than asked says whether another page follows.
		want := p.Limit
		p.Limit++
		recs, err := rule.Awaiting(p)
		if err != nil {
			reply(w, http.StatusServiceUnavailable, Queue{Rule: true, You: you, Message: "four eyes: the bulks awaiting a second operator could not be read"})
			return
		}
		q := Queue{Rule: true, You: you, Bulks: make([]QueuedBulk, 0, min(len(recs), want))}
		for i, rec := range recs {
			if i == want {
				last := q.Bulks[want-1]
				q.Next = &QueueCursor{Before: last.SubmittedAt, BeforeID: last.BulkID}
				break
			}
			totals := rec.Totals
			if totals == nil {
				totals = []bulkreview.Amount{}
			}
			q.Bulks = append(q.Bulks, QueuedBulk{BulkID: rec.BulkID, SubmittedBy: rec.SubmittedBy, SubmittedAt: rec.SubmittedAt, API: rec.API,
				FileName: rec.FileName, Kind: rec.Kind, Elements: rec.Elements, Totals: totals,
				MayExecute: you != "" && !strings.EqualFold(rec.SubmittedBy, you)})
		}
		reply(w, http.StatusOK, q)
	})
}

// queuePage reads the page a request asks for, or says what is wrong.
func queuePage(r *http.Request) (Page, string) {
	q := r.URL.Query()
	p := Page{Limit: DefaultQueueLimit}
	if s := q.Get("state"); s != StateAwaiting {
		return p, "four eyes: only the bulks awaiting a second operator are listed: ask with state=awaiting"
	}
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > MaxQueueLimit {
			return p, "four eyes: limit must be a number from 1 to " + strconv.Itoa(MaxQueueLimit)
		}
		p.Limit = n
	}
	if s := q.Get("before"); s != "" {
		at, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return p, "four eyes: before must be a time such as 2026-11-23T09:30:00Z"
		}
		p.Before = at
	}
	if s := q.Get("beforeId"); s != "" {
		if p.Before.IsZero() || !plainID(s) {
			return p, "four eyes: beforeId must be a bulk id, given with before"
		}
		p.BeforeID = s
	}
	return p, ""
}
