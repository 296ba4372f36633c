//go:build !js

package main

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/bulkrecord"
	"github.com/chromedp/chromedp"
)

// TestConsoleStopsOnRepeatsFromAnotherBrowser submits a file from one
// browser, then a longer copy of it from another (its own, empty
// journal): the confirmation lists the repeats the API's record holds,
// offers no plain Submit, and "Leave them out" sends the new elements
// only. The record is the browser's own, or the one the server keeps
// under -state-dir for every browser.
func TestConsoleStopsOnRepeatsFromAnotherBrowser(t *testing.T) {
	t.Run("the browser's record", func(t *testing.T) { repeatsFromAnotherBrowser(t, "") })
	t.Run("the server's record", func(t *testing.T) { repeatsFromAnotherBrowser(t, t.TempDir()) })
}

func repeatsFromAnotherBrowser(t *testing.T, stateDir string) {
	args := []string{"-sandbox"}
	if stateDir != "" {
		args = append(args, "-state-dir", stateDir)
	}
	serve := startServe(t, args...)
	base := serve.URL
	api := sandboxClient(t, base)
	first := browsertest.New(t)
	first.Do(30*time.Second, chromedp.Navigate(base))
	waitShowing(t, first, 60*time.Second, "the console to start", browsertest.Interactive)
	file, _ := writeTransfersFile(t, "payroll.json", 25)
	loadFile(t, first, "transfers", file)
	first.Do(5*time.Second, browsertest.Press("#confirm-submit"))
	waitShowing(t, first, 60*time.Second, "the submission", `document.querySelector('#submission[data-step="done"]') !== null`)
	earlier := mustList(t, api)
	if len(earlier) != 1 {
		t.Fatalf("the sandbox holds %d bulks", len(earlier))
	}

	other := browsertest.New(t)
	other.Do(30*time.Second, chromedp.Navigate(base))
	waitShowing(t, other, 60*time.Second, "the console to start", browsertest.Interactive)
	longer, _ := writeTransfersFile(t, "payroll.json", 30) // the same 25, and 5 more
	loadFile(t, other, "transfers", longer)
	waitShowing(t, other, 30*time.Second, "the repeats", `document.querySelector('#repeats[data-count="25"]') !== null`)
	if got := text(other, "#repeats"); !strings.Contains(got, "25 of the 30 elements to send were submitted before, in 1 bulk") || !strings.Contains(got, "bulk "+earlier[0].BulkID) {
		t.Errorf("the repeats read %q", got)
	}
	if browsertest.Eval[bool](other, 5*time.Second, `document.getElementById("confirm-submit") !== null`) {
		t.Error("repeats are offered for sending without a choice")
	}
	other.Do(5*time.Second, browsertest.Press("#repeats-leave-out"))
	waitShowing(t, other, 60*time.Second, "the submission", `document.querySelector('#submission[data-step="done"]') !== null`)
	bulks := mustList(t, api)
	if len(bulks) != 2 || bulks[0].SubmittedItemsCount != 5 {
		t.Fatalf("after leaving the repeats out the sandbox holds %+v", bulks)
	}
	if got := text(other, "#repeats-left-out"); !strings.Contains(got, "25 elements submitted before were left out") {
		t.Errorf("the outcome reads %q", got)
	}
	other.AssertNoErrors()
	if stateDir == "" {
		return
	}
	// The server read the earlier bulk's operations for the check, and
	// keeps them for the next browser.
	serve.Stop(t)
	f, err := bulkrecord.Open(stateDir, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	kept, err := f.Load(context.Background(), sandboxScope+"/"+wire.RecordStandard)
	if _, ok := kept[earlier[0].BulkID]; err != nil || !ok {
		t.Errorf("the server's record holds %v, not bulk %s (%v)", slices.Collect(maps.Keys(kept)), earlier[0].BulkID, err)
	}
}
