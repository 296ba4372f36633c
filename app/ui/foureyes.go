package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"

	"github.com/bulkdesk/bulkdesk/app/wire"
)

// fourEyes is what the server says of who may execute a bulk under its
// four-eyes rule (bulkdesk serve -four-eyes; GET four-eyes/bulks/{id}):
// the operator who submitted a bulk through it may not execute it.
type fourEyes struct {
	wire.FourEyesRecord
}

// allowed reports whether this operator may execute the bulk.
func (f fourEyes) allowed() bool { return !f.Rule || (f.MayExecute != nil && *f.MayExecute) }

// why says, in an operator's words, why Execute is not offered.
func (f fourEyes) why() string {
	switch {
	case f.Known != nil && *f.Known && f.SubmittedBy != "" && f.SubmittedBy == f.You:
		return tf("Awaiting a second operator: you submitted this bulk (as %s), and this server's four-eyes rule lets only another operator execute it.", f.You)
	case f.Known != nil && !*f.Known:
		return t("This server has no record of who submitted this bulk, so its four-eyes rule does not let it be executed here.")
	case f.Message != "":
		return tf("Execute is not offered: %s", f.Message)
	}
	return t("Execute is not offered: this server's four-eyes rule does not let you execute this bulk.")
}

// loadFourEyes asks the server whether the signed-in operator may execute
// bulk id.
func loadFourEyes(ctx context.Context, id string) (fourEyes, error) {
	// The receipt is left out: the worker reads it for a review.
	res, err := fetchText(ctx, href("/four-eyes/bulks/"+url.PathEscape(id))+"?receipt=omit")
	if err != nil {
		return fourEyes{}, fmt.Errorf("the server does not say who may execute the bulk: %w", err)
	}
	switch res.status {
	case http.StatusOK, http.StatusNotFound:
	default:
		return fourEyes{}, fmt.Errorf("the server answered who may execute the bulk with %d %s", res.status, http.StatusText(res.status))
	}
	var f fourEyes
	if err := json.Unmarshal([]byte(res.body), &f); err != nil {
		return fourEyes{}, fmt.Errorf("reading who may execute the bulk: %w", err)
	}
	return f, nil
}

// approval says who submitted the bulk and who approved it by executing
// it, "" until it has been executed through the server.
func (f fourEyes) approval() string {
	if f.ExecutedBy == "" || f.ExecutedAt == nil {
		return ""
	}
	return tf("Four eyes: submitted by %s, approved and executed by %s on %s.", f.SubmittedBy, f.ExecutedBy, dateTime(f.ExecutedAt.Local()))
}

// submitterOf is who submitted bulk id as the server knows: the operator
// its four-eyes rule recorded, else the one signed in now; "" when the
// server does not say (no sign-in, or a console served without it).
func submitterOf(ctx context.Context, id string) string {
	if id == "" {
		return ""
	}
	f, err := loadFourEyes(ctx, id)
	switch {
	case err != nil:
		return ""
	case f.Known != nil && *f.Known && f.SubmittedBy != "":
		return f.SubmittedBy
	}
	return f.You
}
