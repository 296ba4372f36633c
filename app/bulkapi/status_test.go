package bulkapi_test

import (
	"slices"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
)

func TestActionsAllowedInEachState(t *testing.T) {
	want := map[bulkapi.Status][]bulkapi.Action{
		bulkapi.Submitted:          {bulkapi.Execute, bulkapi.Cancel},
		bulkapi.Running:            {bulkapi.Pause, bulkapi.Cancel},
		bulkapi.Paused:             {bulkapi.Resume, bulkapi.Cancel},
		bulkapi.Completed:          nil,
		bulkapi.PartiallyCompleted: nil,
		bulkapi.Failed:             nil,
		bulkapi.Cancelled:          nil,
	}
	for _, s := range bulkapi.Statuses() {
		if got := s.Actions(); !slices.Equal(got, want[s]) {
			t.Errorf("%s allows %v, want %v", s, got, want[s])
		}
		if s.Final() != (len(want[s]) == 0) {
			t.Errorf("%s: Final = %v", s, s.Final())
		}
	}
	if len(want) != len(bulkapi.Statuses()) {
		t.Error("a state is missing from the table")
	}
	for a, to := range map[bulkapi.Action]bulkapi.Status{bulkapi.Execute: bulkapi.Running, bulkapi.Pause: bulkapi.Paused, bulkapi.Resume: bulkapi.Running, bulkapi.Cancel: bulkapi.Cancelled} {
		if a.Target() != to {
			t.Errorf("%s leads to %s, want %s", a, a.Target(), to)
		}
	}
}

func TestInvalidFieldNamesTheirElement(t *testing.T) {
	for _, tc := range []struct {
		name  string
		elem  int
		ok    bool
		field string
	}{
		{"[3].requestBody.tag", 3, true, "requestBody.tag"},
		{"12.requestBody", 12, true, "requestBody"},
		{"body[0].pathParams._id_", 0, true, "pathParams._id_"},
		{"requestBody[9999]", 9999, true, ""},
		{"requestBody.tag", 0, false, "requestBody.tag"},
		{"", 0, false, ""},
		{"3d.x", 0, false, "3d.x"},
	} {
		f := bulkapi.InvalidField{FieldName: tc.name}
		i, ok := f.Element()
		if i != tc.elem || ok != tc.ok || f.Field() != tc.field {
			t.Errorf("%q: element %d %v field %q", tc.name, i, ok, f.Field())
		}
	}
}

func TestOperationFailureText(t *testing.T) {
	for payload, want := range map[string]string{
		`{"errorCode":"INSUFFICIENT_FUNDS","message":"balance too low"}`: "INSUFFICIENT_FUNDS: balance too low",
		`{"code":"X"}`:       "X",
		`{"message":"nope"}`: "nope",
		`plain text`:         "plain text",
		``:                   "",
		`{"other":"json"}`:   `{"other":"json"}`,
	} {
		op := bulkapi.Operation{ResponsePayload: payload}
		if got := op.Failure(); got != want {
			t.Errorf("%q: %q, want %q", payload, got, want)
		}
	}
}
