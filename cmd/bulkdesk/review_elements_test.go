package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/keyfields"
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

// TestReviewListsEveryElementWithItsKeyFields reviews a bulk of the
// sandbox: -format json lists every element, in the bulk's order, with
// whom it pays, its amount in minor units, its reference and source; a
// receipt whose elements differ names each by index, the text naming the
// first ten; and -repeats names the bulk an element repeats.
func TestReviewListsEveryElementWithItsKeyFields(t *testing.T) {
	api := startSandboxCommand(t)
	useSandboxCredentials(t)
	file := writeFile(t, "pay.json", string(fixture.SampleBody(15)))
	receipt := filepath.Join(t.TempDir(), "pay.receipt.json")
	code, out, errOut := runCLI(t, "submit", "-kind", "transfers", "-api-url", api, "-format", "json", "-receipt", receipt, file)
	var chunks []entryJSON
	if err := json.Unmarshal([]byte(out), &chunks); code != exitOK || err != nil || len(chunks) != 1 {
		t.Fatalf("submit: %d %v %s", code, err, errOut)
	}
	id := chunks[0].BulkID

	rv := reviewOf(t, exitOK, "-api-url", api, "-receipt", receipt, id)
	if len(rv.Elements) != 15 || len(rv.Differences) != 0 {
		t.Fatalf("%d elements, differences %v", len(rv.Elements), rv.Differences)
	}
	for i, e := range rv.Elements {
		want := bulkreview.Element{Index: i, Valid: true, Fields: keyfields.Fields{
			Counterparty: keyfields.Counterparty{Type: "managed_cards", ID: fmt.Sprintf("2088%06d", i)},
			Amount:       &keyfields.Amount{Currency: "EUR", Minor: fmt.Sprint(100 + i)},
			Reference:    fmt.Sprintf("Invoice %d", i+1),
			Source:       fmt.Sprintf("managed_accounts 1099%06d", i),
		}}
		g, _ := json.Marshal(e)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("element %d:\n %s\nwant\n %s", i, g, w)
		}
	}
	// The amount is digits in a string: exact for any reader.
	if _, raw, _ := runCLI(t, "bulks", "review", "-format", "json", "-api-url", api, id); !strings.Contains(raw, `"amount": {
        "currency": "EUR",
        "amount": "100"
      }`) {
		t.Errorf("the first element's amount as JSON:\n%.2000s", raw)
	}

	// A receipt that declares other elements at 0 to 11: the same count,
	// totals and hash, other fingerprints.
	data, err := os.ReadFile(receipt)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := bulkreview.ReadReceipt(data)
	if err != nil {
		t.Fatal(err)
	}
	changed := string(data)
	for i, fp := range rc.Chunks[0].Fingerprints[:12] {
		changed = strings.Replace(changed, fp, fmt.Sprintf("%032x", i+1), 1)
	}
	other := writeFile(t, "other.receipt.json", changed)
	rv = reviewOf(t, exitInvalid, "-api-url", api, "-receipt", other, id)
	if len(rv.Differences) != 12 {
		t.Fatalf("differences %+v", rv.Differences)
	}
	for i, d := range rv.Differences {
		if d.What != bulkreview.DiffElement || d.Index == nil || *d.Index != i {
			t.Errorf("difference %d: %+v", i, d)
		}
	}
	code, out, _ = runCLI(t, "bulks", "review", "-api-url", api, "-receipt", other, id)
	if code != exitInvalid || strings.Count(out, "DIFFERENCE (element): ") != 10 || !strings.Contains(out, "DIFFERENCE (element): bulk "+id+": element 9 is not what the receipt declares there\n") ||
		strings.Contains(out, "element 10 is") || !strings.Contains(out, "DIFFERENCE: and 2 more elements (-format json names them all)\n") {
		t.Errorf("the text names the first ten: %d\n%s", code, out)
	}

	// The same file again as a new bulk: each element repeats the first.
	code, out, errOut = runCLI(t, "submit", "-kind", "transfers", "-api-url", api, "-format", "json", "-new-bulk", file)
	var again []entryJSON
	if err := json.Unmarshal([]byte(out), &again); code != exitOK || err != nil || len(again) != 1 {
		t.Fatalf("-new-bulk: %d %s %s", code, out, errOut)
	}
	rv = reviewOf(t, exitInvalid, "-api-url", api, "-repeats", again[0].BulkID)
	for i, e := range rv.Elements {
		if len(e.RepeatOf) != 1 || e.RepeatOf[0] != id {
			t.Errorf("element %d repeats %v, want bulk %s", i, e.RepeatOf, id)
		}
	}
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
