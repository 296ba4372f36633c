package main

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
)

// reviewOf runs "bulks review -format json" and reads its answer.
func reviewOf(t *testing.T, wantCode int, args ...string) reviewJSON {
	t.Helper()
	code, out, errOut := runCLI(t, append([]string{"bulks", "review", "-format", "json"}, args...)...)
	var rv reviewJSON
	if err := json.Unmarshal([]byte(out), &rv); err != nil || code != wantCode {
		t.Fatalf("review %v: exit %d (want %d), %v\n%s\n%s", args, code, wantCode, err, out, errOut)
	}
	return rv
}

// An invalid element is listed with its problems in the language -lang
// asks for.
func TestReviewElementsSayTheirProblemsInTheOperatorsLanguage(t *testing.T) {
	api := fakeapi.New()
	url := fakeAPIServer(t, api)
	id := api.Add(bulkapi.Submitted, time.Time{},
		`{"profileId":"110321","source":{"type":"managed_accounts","id":"1000000"},"destination":{"type":"managed_cards","id":"2000000"},"destinationAmount":{"currency":"EUR","amount":100}}`,
		`{"profileId":"110321","source":{"type":"managed_accounts","id":"1000001"},"destination":{"type":"managed_cards"},"destinationAmount":{"currency":"EUR","amount":5}}`)
	en := reviewOf(t, exitInvalid, "-api-url", url, "-timeout", "10s", id)
	de := reviewOf(t, exitInvalid, "-api-url", url, "-timeout", "10s", "-lang", "de", id)
	if len(en.Elements) != 2 || !en.Elements[0].Valid || en.Elements[1].Valid || len(en.Elements[1].Problems) == 0 || len(de.Elements[1].Problems) != len(en.Elements[1].Problems) {
		t.Fatalf("elements %+v", en.Elements)
	}
	if en.Elements[1].Problems[0] == de.Elements[1].Problems[0] {
		t.Errorf("the problem reads the same in German: %q", de.Elements[1].Problems[0])
	}
	if c := en.Elements[1].Counterparty; c.Type != "managed_cards" || c.ID != "" || en.Elements[1].Amount.Minor != "5" {
		t.Errorf("the invalid element's key fields: %+v", en.Elements[1])
	}
}
