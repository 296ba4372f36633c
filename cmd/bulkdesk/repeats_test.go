package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// payCSV writes a CSV file of n transfers; row bad (a file row, from 2),
// when not 0, has an invalid destination type.
func payCSV(t *testing.T, name string, n, bad int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("profileId,source.type,source.id,destination.type,destination.id,destinationAmount.currency,destinationAmount.amount,tag\n")
	for i := range n {
		dest := "managed_cards"
		if i+2 == bad {
			dest = "card"
		}
		fmt.Fprintf(&b, "110321,managed_accounts,1001,%s,%d,EUR,%d,pay-%d\n", dest, 2000+i, 100+i, i)
	}
	return writeFile(t, name, b.String())
}

// bulkCount returns how many bulks the sandbox holds.
func bulkCount(t *testing.T, api string) int {
	t.Helper()
	code, out, errOut := runCLI(t, "bulks", "list", "-all", "-api-url", api, "-format", "json")
	if code != exitOK {
		t.Fatalf("bulks list: %s", errOut)
	}
	return strings.Count(out, `"bulkId"`)
}

func submitJSON(t *testing.T, args ...string) (int, []entryJSON, string) {
	t.Helper()
	code, out, errOut := runCLI(t, append([]string{"submit", "-kind", "transfers", "-format", "json"}, args...)...)
	var chunks []entryJSON
	if code == exitOK {
		if err := json.Unmarshal([]byte(out), &chunks); err != nil {
			t.Fatalf("output %q: %v", out, err)
		}
	}
	return code, chunks, errOut
}

// TestRepeatsAcrossChunkSizes submits a file, then the same file cut into
// other chunks: every element is a repeat, named with its row and bulk.
func TestRepeatsAcrossChunkSizes(t *testing.T) {
	api := startSandboxCommand(t)
	useSandboxCredentials(t)
	file := payCSV(t, "pay.csv", 25, 0)
	code, first, errOut := submitJSON(t, "-api-url", api, "-part-size", "10", file)
	if code != exitOK || len(first) != 3 {
		t.Fatalf("first submit: %d %s", code, errOut)
	}
	code, _, errOut = submitJSON(t, "-api-url", api, "-part-size", "9", file)
	if code != exitInvalid || !strings.Contains(errOut, "repeat: pay row 2 was submitted before in bulk "+first[0].BulkID+" (SUBMITTED) on ") ||
		!strings.Contains(errOut, "from pay.csv pay row 2") || !strings.Contains(errOut, "repeat: and 5 more elements") ||
		!strings.Contains(errOut, "25 of the 25 elements to send were submitted before, in 3 bulks") || !strings.Contains(errOut, "nothing was sent") {
		t.Fatalf("-part-size 9: exit %d\n%s", code, errOut)
	}
	if strings.Contains(errOut, "already:") {
		t.Errorf("two messages for one situation:\n%s", errOut)
	}
	if n := bulkCount(t, api); n != 3 {
		t.Fatalf("%d bulks after the refused repeat", n)
	}
	// -skip-repeats leaves every element out: nothing to send.
	code, chunks, errOut := submitJSON(t, "-api-url", api, "-part-size", "9999", "-skip-repeats", file)
	if code != exitOK || len(chunks) != 0 || !strings.Contains(errOut, "nothing was sent") || bulkCount(t, api) != 3 {
		t.Fatalf("-skip-repeats: %d %v\n%s", code, chunks, errOut)
	}
	// -allow-repeats submits them again, as asked.
	code, chunks, errOut = submitJSON(t, "-api-url", api, "-part-size", "9999", "-allow-repeats", file)
	if code != exitOK || len(chunks) != 1 || chunks[0].Elements != 25 || !strings.Contains(errOut, "submitting again (-allow-repeats)") || bulkCount(t, api) != 4 {
		t.Fatalf("-allow-repeats: %d %v\n%s", code, chunks, errOut)
	}
}

// TestRepeatsAfterAValidOnlySubmission submits the valid rows of a file,
// then the corrected file: only the corrected row is new.
func TestRepeatsAfterAValidOnlySubmission(t *testing.T) {
	api := startSandboxCommand(t)
	useSandboxCredentials(t)
	bad := payCSV(t, "pay.csv", 25, 14)
	code, first, errOut := submitJSON(t, "-api-url", api, "-part-size", "10", "-valid-only", bad)
	if code != exitOK || len(first) != 3 {
		t.Fatalf("-valid-only: %d %s", code, errOut)
	}
	fixed := payCSV(t, "pay.csv", 25, 0)
	code, _, errOut = submitJSON(t, "-api-url", api, "-part-size", "10", fixed)
	if code != exitInvalid || !strings.Contains(errOut, "14 of the 15 elements to send were submitted before, in 2 bulks") ||
		!strings.Contains(errOut, "already: part 1 was submitted") || strings.Contains(errOut, "pay row 14 ") {
		t.Fatalf("the fixed file: exit %d\n%s", code, errOut)
	}
	for _, c := range first {
		if !strings.Contains(errOut, c.BulkID) {
			t.Errorf("bulk %s is not named:\n%s", c.BulkID, errOut)
		}
	}
	if n := bulkCount(t, api); n != 3 {
		t.Fatalf("%d bulks after the refused repeat", n)
	}
	// Leaving the repeats out sends the corrected row alone; the first
	// chunk, the same as before, keeps its bulk.
	code, chunks, errOut := submitJSON(t, "-api-url", api, "-part-size", "10", "-skip-repeats", fixed)
	if code != exitOK || len(chunks) != 2 || chunks[0].BulkID != first[0].BulkID || chunks[1].Elements != 1 || chunks[1].FirstElement != 12 || bulkCount(t, api) != 4 {
		t.Fatalf("-skip-repeats: %d %+v\n%s", code, chunks, errOut)
	}
	// Now every element is in a bulk: the same command sends nothing.
	code, chunks, errOut = submitJSON(t, "-api-url", api, "-part-size", "10", "-skip-repeats", fixed)
	if code != exitOK || len(chunks) != 1 || chunks[0].BulkID != first[0].BulkID || bulkCount(t, api) != 4 {
		t.Fatalf("-skip-repeats again: %d %+v\n%s", code, chunks, errOut)
	}
}

// TestRepeatsFromAnotherJournal submits a file with one journal, then with
// an empty one, as from another machine: the API's record names them.
func TestRepeatsFromAnotherJournal(t *testing.T) {
	api := startSandboxCommand(t)
	useSandboxCredentials(t)
	file := payCSV(t, "pay.csv", 25, 0)
	code, first, errOut := submitJSON(t, "-api-url", api, "-part-size", "10", file)
	if code != exitOK {
		t.Fatalf("first submit: %d %s", code, errOut)
	}
	other := filepath.Join(t.TempDir(), "colleague.json")
	code, _, errOut = submitJSON(t, "-api-url", api, "-part-size", "10", "-journal", other, file)
	if code != exitInvalid || !strings.Contains(errOut, "repeat: pay row 2 was submitted before in bulk "+first[0].BulkID+" (SUBMITTED), listed since ") ||
		!strings.Contains(errOut, "25 of the 25 elements to send were submitted before, in 3 bulks") {
		t.Fatalf("another journal: exit %d\n%s", code, errOut)
	}
	if n := bulkCount(t, api); n != 3 {
		t.Fatalf("%d bulks after the refused repeat", n)
	}
	// Submitted anyway with the same refs within a day, the API returns
	// the bulks it made.
	code, again, errOut := submitJSON(t, "-api-url", api, "-part-size", "10", "-journal", other, "-allow-repeats", file)
	if code != exitOK || len(again) != 3 || again[0].BulkID != first[0].BulkID || bulkCount(t, api) != 3 {
		t.Fatalf("-allow-repeats: %d %+v\n%s", code, again, errOut)
	}
}
