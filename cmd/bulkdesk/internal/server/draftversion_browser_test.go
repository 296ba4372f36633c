//go:build !js

package server_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/chromedp"
)

// markDraftOfAnotherVersion rewrites the draft the worker keeps in the
// browser's IndexedDB as a console of another version would have left it,
// and answers the version it wrote.
const markDraftOfAnotherVersion = `new Promise((done, fail) => {
	const open = indexedDB.open("bulkdesk-draft", 1);
	open.onerror = () => fail(open.error);
	open.onsuccess = () => {
		const tx = open.result.transaction("draft", "readwrite");
		const store = tx.objectStore("draft");
		const get = store.get("meta");
		get.onsuccess = () => {
			const meta = JSON.parse(get.result);
			meta.version = 2;
			store.put(JSON.stringify(meta), "meta");
		};
		tx.oncomplete = () => { open.result.close(); done(2); };
		tx.onerror = () => fail(tx.error);
	};
})`

// A draft kept by another version of the console is not brought back:
// after a reload the page says why, and the draft is gone.
func TestConsoleSaysADraftOfAnotherVersionIsDiscarded(t *testing.T) {
	b := browsertest.New(t)
	srv := startConsole(t, "/")
	file := filepath.Join(t.TempDir(), "payroll.csv")
	if err := os.WriteFile(file, []byte(mixedUnitsEurCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	b.Do(30*time.Second, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(srv.URL))
	b.WaitFor(30*time.Second, "the console to start", browsertest.Interactive)
	b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
	b.WaitFor(30*time.Second, "the draft to be kept", draftStatus+`.startsWith("payroll.csv is kept in this browser")`)
	if v := browsertest.Eval[int](b, 10*time.Second, markDraftOfAnotherVersion); v != 2 {
		t.Fatalf("the draft was not rewritten: %d", v)
	}

	const note = "The file kept in this browser was saved by another version of the console and cannot be brought back; it is discarded. Open the file again."
	b.Do(30*time.Second, chromedp.Reload())
	b.WaitFor(30*time.Second, "the console to start again", browsertest.Interactive)
	b.WaitFor(30*time.Second, "the note", `document.getElementById("status")?.textContent === `+strconv.Quote(note))
	if browsertest.Eval[bool](b, 5*time.Second, `document.getElementById("result") !== null || document.getElementById("read") !== null`) {
		t.Error("a draft of another version was brought back")
	}

	// Discarded: the next reload finds nothing and says nothing of it.
	b.Do(30*time.Second, chromedp.Reload())
	b.WaitFor(30*time.Second, "the console to start again", browsertest.Interactive)
	b.WaitFor(30*time.Second, "every job's answer", `document.documentElement.dataset.jobsInFlight === "0"`)
	if said := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("status")?.textContent ?? ""`); said == note {
		t.Error("the note came again: the draft was kept")
	}
	b.AssertNoErrors()
}
