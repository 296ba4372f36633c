package approvals

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkreview"
)

// Status is the answer of GET four-eyes/bulks/{id}.
type Status struct {
	// Rule says whether the server enforces four eyes; when false, the
	// other fields are absent and any operator may execute any bulk.
	Rule        bool       `json:"rule"`
	BulkID      string     `json:"bulkId,omitempty"`
	Known       *bool      `json:"known,omitempty"`
	SubmittedBy string     `json:"submittedBy,omitempty"`
	SubmittedAt *time.Time `json:"submittedAt,omitempty"`
	API         string     `json:"api,omitempty"`
	ExecutedBy  string     `json:"executedBy,omitempty"`
	ExecutedAt  *time.Time `json:"executedAt,omitempty"`
	CancelledBy string     `json:"cancelledBy,omitempty"`
	CancelledAt *time.Time `json:"cancelledAt,omitempty"`
	// State is where a known bulk stands: StateAwaiting, StateExecuted or
	// StateCancelled.
	State string `json:"state,omitempty"`
	// APIStatus is the state the API gave the bulk once it was executed
	// or cancelled around the server.
	APIStatus string `json:"apiStatus,omitempty"`
	// Kind and FileName are the bulk's kind and the file the console
	// said it submitted, when the server knows them.
	Kind     string `json:"kind,omitempty"`
	FileName string `json:"fileName,omitempty"`
	// Receipt is the maker's receipt the server computed from the
	// submission it passed on (one chunk: this bulk), when it did.
	Receipt    *bulkreview.Receipt `json:"receipt,omitempty"`
	You        string              `json:"you,omitempty"`
	MayExecute *bool               `json:"mayExecute,omitempty"`
	// Message says why MayExecute is false.
	Message string `json:"message,omitempty"`
}

// Handler answers GET four-eyes/bulks/{id} for the console: whether the
// signed-in operator (user reads it from the request's context) may
// execute the bulk, who submitted it, where it stands, and the receipt
// the server computed of it. rule nil answers {"rule":false}
// with the operator's name when the server knows it.
// An unknown bulk is 404, with mayExecute as -four-eyes-unknown says.
// With ?receipt=omit the answer leaves the receipt out.
func Handler(rule *Rule, user func(context.Context) string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rule == nil {
			reply(w, http.StatusOK, Status{Rule: false, You: user(r.Context())})
			return
		}
		id := r.PathValue("id")
		if !plainID(id) {
			reply(w, http.StatusBadRequest, Status{Rule: true, Message: "not a bulk id"})
			return
		}
		you := user(r.Context())
		d := rule.MayExecute(id, you)
		st := Status{Rule: true, BulkID: id, You: you, Known: &d.Known, MayExecute: &d.Allowed}
		if !d.Allowed {
			st.Message = d.Message
		}
		status := http.StatusOK
		switch {
		case d.Reason == RefusedError:
			reply(w, http.StatusServiceUnavailable, Status{Rule: true, BulkID: id, You: you, Message: d.Message})
			return
		case d.Known:
			// receipt=omit answers the record alone: the console reads
			// it for every bulk it lists, and a receipt is megabytes.
			var rc *bulkreview.Receipt
			var err error
			if r.URL.Query().Get("receipt") != "omit" {
				rc, _, err = rule.Receipt(id)
			}
			if err != nil {
				reply(w, http.StatusServiceUnavailable, Status{Rule: true, BulkID: id, You: you, Message: "four eyes: the receipt of bulk " + id + " could not be read"})
				return
			}
			rec := d.Record
			at := rec.SubmittedAt
			st.SubmittedBy, st.SubmittedAt, st.API = rec.SubmittedBy, &at, rec.API
			st.ExecutedBy, st.ExecutedAt = rec.ExecutedBy, rec.ExecutedAt
			st.CancelledBy, st.CancelledAt, st.State, st.APIStatus = rec.CancelledBy, rec.CancelledAt, rec.State(), string(rec.APIStatus)
			st.Kind, st.FileName, st.Receipt = rec.Kind, rec.FileName, rc
		case d.Reason != RefusedNoUser:
			status = http.StatusNotFound
		}
		reply(w, status, st)
	})
}

// plainID accepts what a bulk id can be: short, printable, no slash.
func plainID(s string) bool {
	if s == "" || len(s) > 200 {
		return false
	}
	for _, c := range s {
		if c <= 0x20 || c == 0x7f || c == '/' {
			return false
		}
	}
	return true
}

func reply(w http.ResponseWriter, status int, st any) {
	w.Header().Set("Content-Type", "application/json")
	// Who may execute changes with every submission: never cached.
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(st)
}
