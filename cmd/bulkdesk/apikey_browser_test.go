//go:build !js

package main

import (
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
	"github.com/chromedp/chromedp"
)

// browserHoldings is everything the browser keeps of the console, as text:
// the page, localStorage, sessionStorage and every IndexedDB record and
// key (bytes read as UTF-8).
const browserHoldings = `(async () => {
  const text = v => JSON.stringify(v, (_, x) => x instanceof ArrayBuffer || ArrayBuffer.isView(x) ? new TextDecoder().decode(x) : x);
  const ask = r => new Promise((ok, no) => { r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
  const out = [document.documentElement.outerHTML, text(Object.assign({}, localStorage)), text(Object.assign({}, sessionStorage))];
  for (const {name} of await indexedDB.databases()) {
    const db = await ask(indexedDB.open(name));
    for (const store of db.objectStoreNames) {
      const s = db.transaction(store).objectStore(store);
      out.push("indexedDB " + name + "/" + store + " " + text(await ask(s.getAllKeys())) + text(await ask(s.getAll())));
    }
    db.close();
  }
  return out.join("\n");
})()`

// TestTheConsoleWorksWithTheServersKey serves the sandbox with the
// server's api-key: Settings asks for none and says the server supplies
// it, and a file is submitted, and a back-office token obtained, without
// an api-key ever typed; the key is nowhere in the browser.
func TestTheConsoleWorksWithTheServersKey(t *testing.T) {
	base := startServe(t, "-sandbox", "-api-key-file", writeKeyFile(t, serverKey, 0o600)).URL
	b := browsertest.New(t)
	b.Do(30*time.Second, chromedp.Navigate(base+"settings"))
	waitShowing(t, b, 60*time.Second, "the console to start", browsertest.Interactive)

	waitShowing(t, b, 10*time.Second, "the note that the server supplies the api-key", `document.getElementById("server-key-note") !== null`)
	if browsertest.Eval[bool](b, 5*time.Second, `document.getElementById("api-key") !== null`) {
		t.Error("Settings asks for the api-key of calls through the server")
	}
	if note := text(b, "#server-key-note"); !strings.Contains(note, "supplies the api-key") {
		t.Errorf("the note reads %q", note)
	}
	b.AssertAccessible("the connection settings with the server's api-key")
	b.Do(5*time.Second, browsertest.Press("#test-connection"))
	waitShowing(t, b, 30*time.Second, "the connection test", `document.getElementById("test-result") !== null`)
	b.Do(5*time.Second, browsertest.Press("#obtain-token"))
	waitShowing(t, b, 30*time.Second, "the back-office token", `document.getElementById("backoffice-token").textContent.includes("token for CORPORATE:1001 is held")`)
	// Kept for the tab, the connection is in sessionStorage: without a key.
	b.Do(5*time.Second, browsertest.Press("#keep-for-tab"))
	waitShowing(t, b, 10*time.Second, "the credentials kept for the tab", `sessionStorage.getItem("bulkdesk.connection") !== null`)

	// Direct calls keep the field: the server adds nothing to them.
	b.Do(5*time.Second, browsertest.Press("#route-direct"))
	waitShowing(t, b, 10*time.Second, "the api-key field of direct calls", `document.getElementById("api-key") !== null && document.getElementById("server-key-note") === null`)
	b.Do(5*time.Second, browsertest.Press("#route-proxy"))
	waitShowing(t, b, 10*time.Second, "the note again", `document.getElementById("server-key-note") !== null`)

	b.Do(10*time.Second, browsertest.Press(`nav a[href="/"]`))
	waitShowing(t, b, 10*time.Second, "the Import page", `document.getElementById("request-file") !== null`)
	file, _ := writeTransfersFile(t, "keyless.json", 12)
	loadFile(t, b, "transfers", file)
	b.Do(5*time.Second, browsertest.Press("#confirm-submit"))
	waitShowing(t, b, 60*time.Second, "the submission", `document.querySelector('#submission[data-step="done"]') !== null`)
	through, err := bulkapi.New(bulkapi.Config{BaseURL: base + "api", Token: sandbox.DefaultToken}) // no api-key: the server's
	if err != nil {
		t.Fatal(err)
	}
	if bulks := mustList(t, through); len(bulks) != 1 || bulks[0].SubmittedItemsCount != 12 {
		t.Fatalf("the sandbox holds %+v", bulks)
	}

	held := browsertest.Eval[string](b, 30*time.Second, browserHoldings)
	if !strings.Contains(held, "indexedDB ") || !strings.Contains(held, "bulkdesk.connection") {
		t.Fatalf("the dump of the browser's holdings lacks IndexedDB or the tab's connection:\n%.3000s", held)
	}
	if strings.Contains(held, serverKey) {
		t.Error("the browser holds the server's api-key")
	}
	b.AssertNoErrors()
}
