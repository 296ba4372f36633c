package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/lang"
)

// TestCheckReadsAnOperatorsOwnFile: the German and the French operator's
// own files, CSV and xlsx, checked with -time-zone and -set for what
// they lack: every transfer is read with its accounts, its amount in
// cents and 00:00 of its date in the zone; the German workbook's "Summe"
// row is left out, not read as a transfer, and said to match the rows
// above; the only errors are the references with umlauts or accents, at
// their cells, and there is no warning.
func TestCheckReadsAnOperatorsOwnFile(t *testing.T) {
	for _, f := range ownFiles {
		t.Run(f.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), f.name)
			if err := os.WriteFile(file, f.data(t), 0o600); err != nil {
				t.Fatal(err)
			}
			body := filepath.Join(t.TempDir(), "body.json")
			code, stdout, stderr := runCLI(t, "check", "-kind", "transfers", "-lang", f.lang, "-time-zone", f.zone,
				"-set", "profileId=110321", "-set", "source.type=managed_accounts", "-set", "destination.type=managed_accounts",
				"-o", body, file)
			if code != exitInvalid {
				t.Fatalf("exit %d, want %d (the references with accents):\n%s\n%s", code, exitInvalid, stdout, stderr)
			}
			// Cells as "Sheet!E4", the sheet's name quoted when it has spaces;
			// the report is in the operator's language.
			cells := func(severity string) []string {
				var out []string
				l := lang.Tag(f.lang)
				for _, line := range strings.Split(stdout, "\n") {
					if place, _, ok := strings.Cut(line, l.F("%s: %s: %s", "", l.T(severity), "")); ok {
						out = append(out, place[strings.LastIndexByte(place, '!')+1:])
					}
				}
				return out
			}
			var wantErrors []string
			for i, tr := range f.transfers {
				if _, bad := f.fixed[tr.reference]; bad {
					wantErrors = append(wantErrors, fmt.Sprintf("E%d", f.headerRow+1+i))
				}
			}
			if got := cells("error"); !slices.Equal(got, wantErrors) {
				t.Errorf("errors at %q, want %q:\n%s", got, wantErrors, stdout)
			}
			// The row adding the rows up is no warning: the reading says
			// it is left out and that it matches them.
			if got := cells("warning"); len(got) > 0 {
				t.Errorf("warnings at %q, want none:\n%s", got, stdout)
			}
			if f.totalRow != "" && !strings.Contains(stdout, fmt.Sprintf("„%s“ in Zeile %d: EUR %s, wie die Summe der %d Zeilen darüber.", f.totalRow, f.headerRow+1+len(f.transfers), f.total, len(f.transfers))) {
				t.Errorf("the reading does not say the %q row matches the rows above:\n%s", f.totalRow, stdout)
			}

			// Written out, the fixed references aside, as the sandbox must
			// receive them.
			data, err := os.ReadFile(body)
			if err != nil {
				t.Fatal(err)
			}
			var elements []struct {
				RequestBody json.RawMessage `json:"requestBody"`
			}
			if err := json.Unmarshal(data, &elements); err != nil {
				t.Fatal(err)
			}
			var got []string
			for i, e := range elements {
				got = append(got, receivedTransfers(t, []bulkapi.Operation{{Sequence: i, RequestPayload: string(e.RequestBody)}})...)
			}
			unfixed := f
			unfixed.fixed = nil
			if want := sentTransfers(t, unfixed); !slices.Equal(got, want) {
				t.Errorf("read\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}
