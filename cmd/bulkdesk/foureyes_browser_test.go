//go:build !js

package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
	"github.com/chromedp/chromedp"
)

// portalFor serves the console as a sign-on portal does for one user: it
// names them in X-Forwarded-User, which serve -auth header believes from
// 127.0.0.1.
func portalFor(t testing.TB, console, user string) string {
	t.Helper()
	target, err := url.Parse(console)
	if err != nil {
		t.Fatal(err)
	}
	portal := httptest.NewServer(&httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.Header.Set("X-Forwarded-User", user)
		},
		FlushInterval: -1,
	})
	t.Cleanup(portal.Close)
	return portal.URL + "/"
}

// TestConsoleLetsOnlyASecondOperatorExecute runs serve -four-eyes behind a
// portal for two operators, each in a browser of their own: the maker
// submits a file and is shown that the bulk awaits a second operator, with
// no Execute, and the API refuses the maker's execute through the server;
// the checker opens the bulk and executes it.
func TestConsoleLetsOnlyASecondOperatorExecute(t *testing.T) {
	browsertest.SkipShort(t)
	srv := startServe(t, "-sandbox", "-auth", "header", "-trusted-proxies", "127.0.0.1/32", "-four-eyes", "-state-dir", t.TempDir())
	maker, checker := portalFor(t, srv.URL, "alice"), portalFor(t, srv.URL, "bob")

	m := openPage(t, maker)
	downloads := m.AllowDownloads()
	m.Do(10*time.Second, chromedp.EmulateViewport(1280, 900))
	file, total := writeTransfersFile(t, "payroll-april.json", 40)
	loadFile(t, m, "transfers", file)
	m.Do(5*time.Second, browsertest.Press("#confirm-submit"))
	waitShowing(t, m, 60*time.Second, "the submission", `document.querySelector('#submission[data-step="done"]') !== null`)
	id := browsertest.Eval[string](m, 5*time.Second, `document.querySelector("#submitted-bulks a[data-bulk]").dataset.bulk`)
	// The maker's receipt names the bulk for the checker.
	m.Do(5*time.Second, browsertest.Press("#download-receipt"))
	receipt, err := bulkreview.ReadReceipt(m.Downloaded(30*time.Second, downloads, "payroll-april.receipt.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(receipt.Chunks) != 1 || receipt.Chunks[0].BulkID != id || receipt.Elements != 40 || receipt.File != "payroll-april.json" || receipt.SubmittedBy != "alice" {
		t.Errorf("the receipt: %+v", receipt)
	}
	receiptFile := browsertest.WriteFile(t, "payroll-april.receipt.json", m.Downloaded(5*time.Second, downloads, "payroll-april.receipt.json"))
	// The same receipt as a page to print, which a review reads too.
	m.Do(5*time.Second, browsertest.Press("#print-receipt"))
	page := m.Downloaded(30*time.Second, downloads, "payroll-april.receipt.html")
	if printed, err := bulkreview.ReadReceipt(page); err != nil || printed.Chunks[0].SHA256 != receipt.Chunks[0].SHA256 || !strings.Contains(string(page), "by <strong id=\"receipt-by\">alice</strong>") {
		t.Errorf("the receipt to print: %v %+v", err, printed)
	}
	openBulk(t, m, id)
	waitShowing(t, m, 30*time.Second, "the four-eyes note", `(document.getElementById("four-eyes")?.textContent ?? "").startsWith("Awaiting a second operator")`)
	if got := text(m, "#four-eyes"); !strings.Contains(got, "(as alice)") {
		t.Errorf("the maker reads %q", got)
	}
	if browsertest.Eval[bool](m, 5*time.Second, `document.getElementById("action-execute") !== null`) {
		t.Error("the maker is offered Execute")
	}
	m.Shoot("four-eyes-maker.png")
	// The maker's execute, sent anyway from the maker's page, is refused
	// by the server before it reaches the API.
	execute := `fetch("api/bulks/` + id + `/execute", {method: "POST", cache: "no-store", headers: {"api-key": ` + browsertest.JSString(sandbox.DefaultAPIKey) +
		`, "Authorization": ` + browsertest.JSString("Bearer "+sandbox.DefaultToken) + `, "Content-Type": "application/json"}, body: "{}"}).then(r => r.status)`
	if got := browsertest.Eval[int](m, 10*time.Second, execute); got != http.StatusForbidden {
		t.Errorf("the maker's execute through the server: %d, want 403", got)
	}

	// The checker, in a browser of their own, finds the bulk awaiting
	// approval in the list, reviews it against the maker's receipt, and
	// executes it.
	c := openPage(t, checker+"bulks")
	reviews := c.AllowDownloads()
	c.Do(10*time.Second, chromedp.EmulateViewport(1280, 1400))
	row := `document.querySelector('#bulk-list tr[data-bulk="` + id + `"]')`
	waitShowing(t, c, 30*time.Second, "the bulk in the list", row+` !== null`)
	if got := browsertest.Eval[string](c, 5*time.Second, row+`.querySelector(".bulk-state").textContent`); !strings.HasPrefix(got, "Awaiting approval") {
		t.Errorf("the list shows the bulk as %q", got)
	}
	c.Shoot("four-eyes-list.png")
	c.Do(10*time.Second, browsertest.Press(`#bulk-list tr[data-bulk="`+id+`"] .bulk-review-link`))
	waitShowing(t, c, 30*time.Second, "Execute for the checker", `document.getElementById("action-execute") !== null && document.getElementById("run-review") !== null`)
	c.Do(10*time.Second, chromedp.SetUploadFiles(chromedp.ID("review-receipt"), []string{receiptFile}))
	waitShowing(t, c, 10*time.Second, "the receipt loaded", `document.getElementById("review-receipt-hint").textContent.startsWith("Loaded: ")`)
	c.Do(5*time.Second, browsertest.Press("#run-review"))
	waitShowing(t, c, 60*time.Second, "the verdict", `document.querySelector('#review-verdict[data-match]') !== null`)
	if got := text(c, "#review-verdict"); got != "Matches the receipt" {
		t.Errorf("the checker's verdict reads %q: %s", got, text(c, "#review-differences"))
	}
	if got, want := text(c, `#review-totals li[data-currency="EUR"] .total-amount`), fmt.Sprintf("EUR %s.%02d", thousands(total/100), total%100); got != want {
		t.Errorf("the review's total reads %q, the file's is %q", got, want)
	}
	if got := text(c, "#review-contract"); got != "the built-in contract" {
		t.Errorf("the review was validated with %q", got)
	}
	c.Shoot("four-eyes-review.png")
	if browsertest.Eval[bool](c, 5*time.Second, `document.getElementById("four-eyes") !== null`) {
		t.Errorf("the checker reads %q", text(c, "#four-eyes"))
	}
	confirmExecute(t, c)
	waitShowing(t, c, 60*time.Second, "the bulk to complete", `document.getElementById("bulk-status")?.textContent === "Completed: all 40 done"`)
	waitShowing(t, c, 30*time.Second, "the approval", `(document.getElementById("four-eyes-approval")?.textContent ?? "").startsWith("Four eyes: submitted by alice, approved and executed by bob on ")`)
	c.Shoot("four-eyes-checker.png")
	// The checker's record of the review names the maker, the checker and
	// the approval, as the server recorded them.
	c.Do(5*time.Second, browsertest.Press("#download-review"))
	var rec wire.ReviewRecord
	if err := json.Unmarshal(c.Downloaded(30*time.Second, reviews, "bulk-"+id+".review.json"), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Version != 1 || rec.ReviewedBy != "bob" || rec.SubmittedBy != "alice" || rec.ApprovedBy != "bob" || rec.ApprovedAt == nil ||
		!rec.Matches || rec.Receipt != "payroll-april.receipt.json" || rec.Review.Elements != 40 || rec.Review.BodySHA256 != receipt.Chunks[0].SHA256 {
		t.Errorf("the review's record: %+v", rec)
	}
	m.AssertNoErrors("403")
	c.AssertNoErrors()
}
