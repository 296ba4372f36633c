//go:build !js

package server_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/chromedp"
)

// newerContractYAML is the test contract with one change a newer API
// might make: transfers gain a required field, endToEndId, which may be
// null (an OpenAPI keyword the reader translates, and says so).
func newerContractYAML(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile("../../../../schema/contract/testdata/multi-bulks.yml")
	if err != nil {
		t.Fatal(err)
	}
	return []byte(fixture.WithEndToEndID(string(data)))
}

const (
	contractInUse = `(document.getElementById("contract-in-use")?.textContent ?? "")`
	jobsIdle      = `document.documentElement.dataset.jobsInFlight === "0"`
)

// openSettings loads the Settings page and waits for the contract in use.
func openSettings(b *browsertest.Browser, url string) {
	b.Do(30*time.Second, chromedp.Navigate(url+"settings"))
	b.WaitFor(30*time.Second, "the console to start", browsertest.Interactive)
	b.WaitFor(30*time.Second, "the contract in use", contractInUse+`.startsWith("In use:")`)
}

func TestConsoleLoadsANewerContractAndGoesBack(t *testing.T) {
	b := browsertest.New(t)
	srv := startConsole(t, "/")
	newer := browsertest.WriteFile(t, "bulks-v4.yml", newerContractYAML(t))
	notOpenAPI := browsertest.WriteFile(t, "notes.yml", []byte("shopping:\n  - eggs\n"))
	b.Do(10*time.Second, chromedp.EmulateViewport(1280, 900))

	openSettings(b, srv.URL)
	if got := browsertest.Eval[string](b, 5*time.Second, contractInUse); got != "In use: the built-in contract." {
		t.Errorf("at first: %q", got)
	}
	b.Do(10*time.Second, chromedp.SetUploadFiles(chromedp.ID("contract-file"), []string{newer}))
	b.WaitFor(60*time.Second, "the newer contract in use", contractInUse+`.includes("bulks-v4.yml")`)
	transfers := browsertest.Eval[string](b, 5*time.Second, `document.querySelector('#contract-differences [data-kind="transfers"]')?.textContent ?? ""`)
	if !strings.Contains(transfers, "endToEndId") || !strings.Contains(transfers, "required") {
		t.Errorf("transfers' differences = %q, want endToEndId, required", transfers)
	}
	notes := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("contract-notes")?.textContent ?? ""`)
	if !strings.Contains(notes, "Translated") || !strings.Contains(notes, "nullable") {
		t.Errorf("the reader's notes = %q, want nullable translated", notes)
	}
	b.Do(5*time.Second, browsertest.Press("#contract-notes summary"))
	t.Log("screenshot:", b.ShootElement("#contract", "contract-loaded.png"))

	// A transfers file is checked against the newer contract.
	b.Do(30*time.Second, chromedp.Navigate(srv.URL))
	b.WaitFor(30*time.Second, "the console to start", browsertest.Interactive)
	b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{writeTransfers(t, "pay.json", 3)}))
	b.WaitFor(60*time.Second, "the review", browsertest.ReviewShown)
	if got := counts(b); got["count-invalid"] != "3" {
		t.Errorf("summary = %v, want 3 invalid", got)
	}
	problems := browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("#problems li")].map(li => li.textContent)`)
	if len(problems) == 0 || !strings.Contains(problems[0], "endToEndId") {
		t.Errorf("problems = %q, want endToEndId missing", problems)
	}

	// The contract is kept across a reload.
	openSettings(b, srv.URL)
	b.Do(30*time.Second, chromedp.Reload())
	b.WaitFor(30*time.Second, "the console to start again", browsertest.Interactive)
	b.WaitFor(30*time.Second, "the newer contract still in use", contractInUse+`.includes("bulks-v4.yml")`)

	// Back to the built-in contract.
	b.Do(5*time.Second, browsertest.Press("#contract-builtin"))
	b.WaitFor(30*time.Second, "the built-in contract in use", contractInUse+` === "In use: the built-in contract." && document.getElementById("contract-differences") === null`)

	// A file that is not OpenAPI is refused, naming the file; the
	// contract in use stays.
	b.Do(10*time.Second, chromedp.SetUploadFiles(chromedp.ID("contract-file"), []string{notOpenAPI}))
	b.WaitFor(60*time.Second, "the reader's error", `(document.getElementById("contract-failure")?.textContent ?? "").includes("notes.yml")`)
	failure := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("contract-failure").textContent`)
	if !strings.Contains(failure, "not an OpenAPI 3.x document") {
		t.Errorf("failure = %q", failure)
	}
	if got := browsertest.Eval[string](b, 5*time.Second, contractInUse); got != "In use: the built-in contract." {
		t.Errorf("after the refused file: %q", got)
	}
	t.Log("screenshot:", b.ShootElement("#contract", "contract-refused.png"))
	b.AssertNoErrors()
}

// sepaWithoutDescription is a SEPA wire without a description, which the
// API's documentation asks for (the advise entry "sepa-reference").
const sepaWithoutDescription = `[{"pathParams": {}, "requestBody": {"profileId": "110323", "sourceInstrument": {"type": "managed_accounts", "id": "1"},
 "transferAmount": {"currency": "EUR", "amount": 150000}, "purpose": "Supplier invoice",
 "destinationBeneficiary": {"name": "Elodie Muller", "iban": "FR7630006000011234567890189", "bankIdentifierCode": "AGRIFRPP882"}}}]`

func TestConsoleStrictSettingMakesTheDocumentationsRulesErrors(t *testing.T) {
	b := browsertest.New(t)
	srv := startConsole(t, "/")
	sepa := browsertest.WriteFile(t, "sepa.json", []byte(sepaWithoutDescription))

	openSettings(b, srv.URL)
	b.Do(5*time.Second, browsertest.Press("#contract-strict"))
	b.WaitFor(30*time.Second, "the setting to reach the worker", jobsIdle+` && document.getElementById("contract-strict").checked && localStorage.getItem("bulkdesk-strict") === "on"`)

	b.Do(30*time.Second, chromedp.Navigate(srv.URL))
	b.WaitFor(30*time.Second, "the console to start", browsertest.Interactive)
	b.Do(10*time.Second, browsertest.Pick("kind", "outgoing_wire_transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{sepa}))
	b.WaitFor(60*time.Second, "the review", browsertest.ReviewShown)
	if got := counts(b); got["count-errors"] != "1" || got["count-invalid"] != "1" {
		t.Errorf("summary = %v, want the missing description an error", got)
	}
	problems := browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("#problems li")].map(li => li.textContent)`)
	if len(problems) != 1 || !strings.Contains(problems[0], "description") {
		t.Errorf("problems = %q, want the missing description", problems)
	}
	t.Log("screenshot:", b.ShootElement("#problems", "strict-sepa.png"))
	b.AssertNoErrors()
}
