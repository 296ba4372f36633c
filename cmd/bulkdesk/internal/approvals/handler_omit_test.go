//go:build !js

package approvals_test

import (
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
)

// A console listing bulks asks for each one's record without its
// receipt, which is megabytes for a bulk of 10,000 elements.
func TestTheStatusLeavesTheReceiptOutWhenAsked(t *testing.T) {
	at := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	rule := &approvals.Rule{Records: mustOpen(t, t.TempDir()), Now: func() time.Time { return at }}
	defer rule.Records.(*approvals.Store).Close()
	defer rule.Close()
	f, _ := rule.Submitting("alice", "standard", time.Minute)
	if err := rule.Answered(f, made(t, "b-1", 3, "pay.xlsx")); err != nil {
		t.Fatal(err)
	}
	if _, st := ask(t, rule, "bob", "/four-eyes/bulks/b-1"); st["receipt"] == nil {
		t.Fatalf("the receipt is not answered: %v", st)
	}
	code, st := ask(t, rule, "bob", "/four-eyes/bulks/b-1?receipt=omit")
	if code != 200 || st["receipt"] != nil || st["submittedBy"] != "alice" || st["fileName"] != "pay.xlsx" || st["state"] != "awaiting" || st["mayExecute"] != true {
		t.Errorf("asked without the receipt: %d %v", code, st)
	}
}
