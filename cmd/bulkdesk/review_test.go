package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
)

func TestReviewABulkAgainstTheMakersReceipt(t *testing.T) {
	api := startSandboxCommand(t)
	useSandboxCredentials(t)
	file := writeFile(t, "pay.json", string(fixture.SampleBody(25)))
	receipt := filepath.Join(t.TempDir(), "pay.receipt.json")
	code, out, errOut := runCLI(t, "submit", "-kind", "transfers", "-api-url", api, "-part-size", "10", "-format", "json", "-receipt", receipt, "-submitted-by", "maker", file)
	if code != exitOK || !strings.Contains(errOut, "receipt: "+receipt) {
		t.Fatalf("submit: %d %s", code, errOut)
	}
	var chunks []entryJSON
	if err := json.Unmarshal([]byte(out), &chunks); err != nil || len(chunks) != 3 {
		t.Fatalf("chunks %s: %v", out, err)
	}
	data, err := os.ReadFile(receipt)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := bulkreview.ReadReceipt(data)
	if err != nil {
		t.Fatal(err)
	}
	if rc.File != "pay.json" || rc.SubmittedBy != "maker" || len(rc.Chunks) != 3 || rc.Chunks[2].BulkID != chunks[2].BulkID || rc.Elements != 25 || rc.Totals[0].Minor != "2800" {
		t.Fatalf("receipt %s", data)
	}

	first := chunks[0].BulkID
	code, out, errOut = runCLI(t, "bulks", "review", "-api-url", api, "-receipt", receipt, first)
	if code != exitOK || !strings.Contains(out, "operations: 10\n") || !strings.Contains(out, "total: EUR 10.45 in 10 amounts") ||
		!strings.Contains(out, "body sha256: "+rc.Chunks[0].SHA256) || !strings.Contains(out, "matches: every element is valid") ||
		!strings.Contains(out, "source managed_accounts 1099000000: 1 element, EUR 1.00") {
		t.Fatalf("review: %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = runCLI(t, "bulks", "review", "-api-url", api, "-receipt", receipt, "-format", "json", "-count", "4", "-total", "EUR 10.45", chunks[2].BulkID)
	var rv reviewJSON
	if err := json.Unmarshal([]byte(out), &rv); err != nil {
		t.Fatal(err)
	}
	if code != exitInvalid || rv.Matches || rv.Operations != 5 || rv.BodySHA256 != rc.Chunks[2].SHA256 || len(rv.Differences) != 2 ||
		!strings.Contains(rv.Differences[0].Text, "the control count is 4") || !strings.Contains(rv.Differences[1].Text, "EUR: the control total is EUR 10.45; the bulk holds EUR 6.10 in 5 amounts") {
		t.Errorf("review with control totals: %d %s", code, out)
	}
	if code, _, _ := runCLI(t, "bulks", "review", "-api-url", api, "-count", "5", "-total", "EUR 6.10", chunks[2].BulkID); code != exitOK {
		t.Errorf("right control totals: exit %d", code)
	}
	if code, out, _ := runCLI(t, "bulks", "review", "-api-url", api, "-lang", "de", "-count", "5", "-total", "6,10 EUR", chunks[2].BulkID); code != exitOK {
		t.Errorf("right control totals in German: exit %d\n%s", code, out)
	}

	// A receipt that declares another amount than the bulk holds.
	changed := strings.Replace(string(data), `"minor": "1045"`, `"minor": "1054"`, 1)
	if changed == string(data) {
		t.Fatalf("no chunk total of 1045 in %s", data)
	}
	other := writeFile(t, "other.receipt.json", changed)
	code, out, _ = runCLI(t, "bulks", "review", "-api-url", api, "-receipt", other, first)
	if code != exitInvalid || !strings.Contains(out, "DIFFERENCE (total): bulk "+first+": EUR: the receipt declares EUR 10.54 in 10 amounts; the bulk holds EUR 10.45 in 10 amounts") || !strings.Contains(out, "DOES NOT MATCH") {
		t.Errorf("another amount: %d\n%s", code, out)
	}

	// The same file again as new bulks: their elements repeat the first.
	code, out, errOut = runCLI(t, "submit", "-kind", "transfers", "-api-url", api, "-part-size", "10", "-format", "json", "-new-bulk", file)
	var again []entryJSON
	if err := json.Unmarshal([]byte(out), &again); code != exitOK || err != nil || len(again) != 3 {
		t.Fatalf("-new-bulk: %d %s %s", code, out, errOut)
	}
	code, out, _ = runCLI(t, "bulks", "review", "-api-url", api, "-repeats", again[0].BulkID)
	if code != exitInvalid || !strings.Contains(out, "repeat: sequence 0 was submitted before in bulk "+first) || strings.Count(out, "repeat: ") != 10 {
		t.Errorf("-repeats: %d\n%s", code, out)
	}
	if code, out, _ := runCLI(t, "bulks", "review", "-api-url", api, "-repeats", chunks[1].BulkID); code != exitInvalid || !strings.Contains(out, "in bulk "+again[1].BulkID) {
		t.Errorf("-repeats of the first bulks: %d\n%s", code, out)
	}

	for name, args := range map[string][]string{
		"no id":        {"bulks", "review", "-api-url", api},
		"bad total":    {"bulks", "review", "-api-url", api, "-total", "EUR 1.000", first},
		"no receipt":   {"bulks", "review", "-api-url", api, "-receipt", filepath.Join(t.TempDir(), "none.json"), first},
		"bad receipt":  {"bulks", "review", "-api-url", api, "-receipt", writeFile(t, "bad.json", `{"version":9}`), first},
		"wrong format": {"bulks", "review", "-api-url", api, "-format", "xml", first},
	} {
		if code, _, _ := runCLI(t, args...); code != exitUsage {
			t.Errorf("%s: exit %d, want %d", name, code, exitUsage)
		}
	}
}

func TestReviewNamesInvalidElements(t *testing.T) {
	api := fakeapi.New()
	url := fakeAPIServer(t, api)
	id := api.Add(bulkapi.Submitted, time.Time{},
		`{"profileId":"110321","source":{"type":"managed_accounts","id":"1000000"},"destination":{"type":"managed_cards","id":"2000000"},"destinationAmount":{"currency":"EUR","amount":100}}`,
		`{"profileId":"110321","source":{"type":"managed_accounts","id":"1000001"},"destination":{"type":"managed_cards","id":"2000001"},"destinationAmount":{"currency":"eur","amount":5}}`)
	code, out, errOut := runCLI(t, "bulks", "review", "-api-url", url, "-timeout", "10s", id)
	if code != exitInvalid || !strings.Contains(out, "invalid: 1 of 2 elements") || !strings.Contains(out, "  sequence 1: ") || !strings.Contains(out, `total: invalid currency eur: 5 in minor units in 1 amount`) {
		t.Errorf("review: %d\n%s\n%s", code, out, errOut)
	}
}
