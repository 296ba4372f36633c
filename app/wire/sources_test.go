package wire_test

import (
	"testing"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/kvstore"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/schema"
)

// The protocol's values are those of the packages that produce them on
// the worker's side (the API client, the journal, the validator, the
// reader), which the page does not link: the page compares with the
// protocol's constants, so the two must not drift apart.
func TestValuesMatchTheirSources(t *testing.T) {
	same := func(what string, got []string, want ...string) {
		t.Helper()
		if len(got) != len(want) {
			t.Errorf("%s: %q, the worker's side has %q", what, got, want)
			return
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: %q, the worker's side has %q", what, got, want)
				return
			}
		}
	}
	strs := func(n int, at func(int) string) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = at(i)
		}
		return out
	}

	st := bulkapi.Statuses()
	same("bulk states", wire.BulkStates(), strs(len(st), func(i int) string { return string(st[i]) })...)
	ops := bulkapi.OperationStatuses()
	same("operation states", wire.OperationStates(), strs(len(ops), func(i int) string { return string(ops[i]) })...)
	acts := bulkapi.Actions()
	same("actions", []string{wire.ActionExecute, wire.ActionPause, wire.ActionResume, wire.ActionCancel},
		strs(len(acts), func(i int) string { return string(acts[i]) })...)
	same("modes", []string{wire.ModeOnFailureStop, wire.ModeOnFailureContinue},
		string(bulkapi.OnFailureStop), string(bulkapi.OnFailureContinue))
	same("failure classes",
		[]string{wire.ClassBadRequest, wire.ClassCredentials, wire.ClassForbidden, wire.ClassNotFound,
			wire.ClassConflict, wire.ClassRateLimited, wire.ClassServer, wire.ClassOther},
		string(bulkapi.ClassBadRequest), string(bulkapi.ClassCredentials), string(bulkapi.ClassForbidden), string(bulkapi.ClassNotFound),
		string(bulkapi.ClassConflict), string(bulkapi.ClassRateLimited), string(bulkapi.ClassServer), string(bulkapi.ClassOther))
	same("journal states", []string{wire.StatePlanned, wire.StateSending, wire.StateSubmitted, wire.StateFailed},
		string(submission.Planned), string(submission.Sending), string(submission.Submitted), string(submission.Failed))
	same("severities", []string{wire.SeverityError, wire.SeverityWarning}, string(schema.Error), string(schema.Warning))
	same("formats", []string{wire.FormatXLSX, wire.FormatCSV, wire.FormatJSON},
		string(ingest.XLSX), string(ingest.CSV), string(ingest.JSON))
	if wire.StorageKeyPrefix != kvstore.KeyPrefix {
		t.Errorf("StorageKeyPrefix is %q, the journal's keys start with %q", wire.StorageKeyPrefix, kvstore.KeyPrefix)
	}
}
