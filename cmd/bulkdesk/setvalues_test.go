package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bankExportCSV is a bank's export of transfers, in its own words: it
// has no column for the profile or the source's type.
const bankExportCSV = "source.id;destination.type;destination.id;destinationAmount.currency;destinationAmount.amount\n" +
	"1001;managed_cards;2001;EUR;25000\n" +
	"1002;managed_cards;2002;EUR;1999\n"

// setCheck is what a script reads of "check -format json" here.
type setCheck struct {
	Errors []struct {
		Row     int    `json:"row"`
		Column  string `json:"column"`
		Field   string `json:"field"`
		Message string `json:"message"`
	} `json:"errors"`
	Source struct {
		Values map[string]string `json:"values"`
	} `json:"source"`
}

func checkSet(t *testing.T, args ...string) (int, setCheck, string) {
	t.Helper()
	code, stdout, stderr := runCLI(t, append([]string{"check", "-kind", "transfers", "-format", "json"}, args...)...)
	var got setCheck
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("exit %d, stderr %q: %v\n%s", code, stderr, err, stdout)
	}
	return code, got, stdout
}

func TestCheckSetGivesAFieldNoColumnFillsAValueForEveryRow(t *testing.T) {
	file := writeFile(t, "bank.csv", bankExportCSV)
	// Without: every row lacks the profile and the source's type.
	if code, got, _ := checkSet(t, file); code != exitInvalid || len(got.Errors) != 4 {
		t.Fatalf("without -set: exit %d, %d errors", code, len(got.Errors))
	}
	code, got, raw := checkSet(t, "-set", "profileId=110321", "-set", "source.type=managed_accounts", file)
	if code != exitOK || len(got.Errors) != 0 {
		t.Fatalf("exit %d:\n%s", code, raw)
	}
	if got.Source.Values["profileId"] != "110321" || got.Source.Values["source.type"] != "managed_accounts" || len(got.Source.Values) != 2 {
		t.Errorf("the JSON's source.values: %v", got.Source.Values)
	}
	code, out, _ := runCLI(t, "check", "-kind", "transfers", "-set", "profileId=110321", "-set", "source.type=managed_accounts", file)
	if code != exitOK || !strings.Contains(out, "5 of 5 columns mapped, set for every row, profileId=110321, source.type=managed_accounts; amounts in minor units") {
		t.Errorf("text output:\n%s", out)
	}

	// A value the contract refuses is named as the value set for every
	// row, in each row, at no cell.
	code, got, raw = checkSet(t, "-set", "profileId=11O321", "-set", "source.type=managed_accounts", file)
	if code != exitInvalid || len(got.Errors) != 2 {
		t.Fatalf("exit %d:\n%s", code, raw)
	}
	for i, e := range got.Errors {
		if e.Row != i+2 || e.Column != "" || e.Field != "profileId" || !strings.HasPrefix(e.Message, "the value set for every row: profileId ") {
			t.Errorf("error %d: %+v", i, e)
		}
	}
}

func TestCheckSetRefusesWhatItCannotSet(t *testing.T) {
	file := writeFile(t, "bank.csv", bankExportCSV)
	request := writeFile(t, "pay.json", `[{"requestBody":{"profileId":"1"}}]`)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-set", "profilId=110321", file}, `"profilId"`},
		{[]string{"-set", "source.id=1001", file}, "column A fills source.id"},
		{[]string{"-set", "profileId", file}, `"profileId": write FIELD=VALUE`},
		{[]string{"-set", "profileId=1", "-set", "profileId=2", file}, "profileId is already given a value"},
		{[]string{"-set", "profileId=1", request}, "-set: " + request + " is a JSON request body"},
	} {
		code, _, errOut := runCLI(t, append([]string{"check", "-kind", "transfers"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("check %q: exit %d, %q; want %d naming %s", tc.args, code, errOut, exitUsage, tc.want)
		}
	}
}

// TestMappingFilesKeepTheValuesSetForEveryRow: -save-mapping writes them,
// -mapping applies them to the next file, and -set wins over them.
func TestMappingFilesKeepTheValuesSetForEveryRow(t *testing.T) {
	file := writeFile(t, "bank.csv", bankExportCSV)
	mapping := filepath.Join(t.TempDir(), "bank.mapping.json")
	if code, _, errOut := runCLI(t, "check", "-kind", "transfers", "-set", "profileId=110321", "-set", "source.type=managed_accounts", "-save-mapping", mapping, file); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(mapping)
	if err != nil || !strings.Contains(string(data), `"values": {
    "profileId": "110321",
    "source.type": "managed_accounts"
  }`) {
		t.Fatalf("the mapping file: %s (%v)", data, err)
	}
	if code, got, raw := checkSet(t, "-mapping", mapping, file); code != exitOK || got.Source.Values["profileId"] != "110321" {
		t.Errorf("-mapping: exit %d\n%s", code, raw)
	}
	if code, got, raw := checkSet(t, "-mapping", mapping, "-set", "profileId=220431", file); code != exitOK || got.Source.Values["profileId"] != "220431" || got.Source.Values["source.type"] != "managed_accounts" {
		t.Errorf("-mapping with -set: exit %d\n%s", code, raw)
	}
}

// TestSubmitSendsTheValuesSetForEveryRow: what check reads, submit sends.
func TestSubmitSendsTheValuesSetForEveryRow(t *testing.T) {
	api := startSandboxCommand(t)
	useSandboxCredentials(t)
	file := writeFile(t, "bank.csv", bankExportCSV)
	if code, _, errOut := runCLI(t, "submit", "-kind", "transfers", "-api-url", api, file); code != exitInvalid || !strings.Contains(errOut, "nothing was sent") {
		t.Fatalf("without -set: exit %d, %s", code, errOut)
	}
	code, out, errOut := runCLI(t, "submit", "-kind", "transfers", "-api-url", api, "-set", "profileId=110321", "-set", "source.type=managed_accounts", "-format", "json", file)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var chunks []entryJSON
	if err := json.Unmarshal([]byte(out), &chunks); err != nil || len(chunks) != 1 || chunks[0].Elements != 2 {
		t.Fatalf("output %s: %v", out, err)
	}
	code, out, errOut = runCLI(t, "bulks", "operations", "-all", "-format", "json", "-api-url", api, chunks[0].BulkID)
	if code != exitOK {
		t.Fatalf("operations: %s", errOut)
	}
	if strings.Count(out, `\"profileId\":\"110321\"`) != 2 || strings.Count(out, `\"type\":\"managed_accounts\"`) != 2 {
		t.Errorf("operations:\n%s", out)
	}
}
