package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs bulkdesk in-process and returns its exit code and output.
func runCLI(t testing.TB, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCheckValidFile(t *testing.T) {
	code, out, errOut := runCLI(t, "check", "-kind", "transfers", filepath.Join("..", "..", "schema", "testdata", "valid", "transfers.json"))
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "transfers, valid: 0 of 2 elements invalid, 0 errors, 0 warnings") {
		t.Errorf("summary: %q", out)
	}
}

func TestCheckJSONOutput(t *testing.T) {
	file := writeFile(t, "req.json", `[
  {"requestBody": {"profileId": "1", "source": {"type": "managed_accounts", "id": "1"}, "destination": {"type": "managed_cards", "id": "2"}, "destinationAmount": {"currency": "EUR", "amount": 100}}},
  {"requestBody": {"profileId": "1", "source": {"type": "managed_accounts", "id": "1"}, "destination": {"type": "managed_cards", "id": "2"}, "destinationAmount": {"currency": "EUR", "amount": "1.00"}, "tga": "x"}},
  {"requestBody": {"profileId": "1", "source": {"type": "managed_accounts", "id": "1"}, "destination": {"type": "managed_cards", "id": "2"}, "destinationAmount": {"currency": "EUR", "amount": 5}}}
]`)
	code, out, errOut := runCLI(t, "check", "-kind", "transfers", "-format", "json", file)
	if code != exitInvalid || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var got struct {
		Kind            string `json:"kind"`
		Elements        int    `json:"elements"`
		InvalidElements int    `json:"invalidElements"`
		Errors          []struct {
			Element int    `json:"element"`
			Pointer string `json:"pointer"`
			Message string `json:"message"`
		} `json:"errors"`
		Warnings []struct {
			Element int    `json:"element"`
			Pointer string `json:"pointer"`
			Message string `json:"message"`
		} `json:"warnings"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Kind != "transfers" || got.Elements != 3 || got.InvalidElements != 1 {
		t.Errorf("summary %+v", got)
	}
	if len(got.Errors) != 1 || got.Errors[0].Element != 1 || got.Errors[0].Pointer != "/requestBody/destinationAmount/amount" ||
		!strings.Contains(got.Errors[0].Message, "destinationAmount.amount must be a whole number") {
		t.Errorf("errors %+v", got.Errors)
	}
	if len(got.Warnings) != 1 || got.Warnings[0].Pointer != "/requestBody/tga" || !strings.Contains(got.Warnings[0].Message, "did you mean tag?") {
		t.Errorf("warnings %+v", got.Warnings)
	}
}

func TestCheckRequestLevelErrors(t *testing.T) {
	for name, body := range map[string]string{"empty": `[]`, "not an array": `{"requestBody": {}}`} {
		t.Run(name, func(t *testing.T) {
			code, out, _ := runCLI(t, "check", "-kind", "card_blocks", "-format", "json", writeFile(t, "r.json", body))
			if code != exitInvalid {
				t.Fatalf("exit %d", code)
			}
			var got struct {
				Errors []struct {
					Element int    `json:"element"`
					Message string `json:"message"`
				} `json:"errors"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			if len(got.Errors) != 1 || got.Errors[0].Element != -1 {
				t.Errorf("errors %+v", got.Errors)
			}
		})
	}
}

func TestCheckTextOutputNamesEveryProblem(t *testing.T) {
	file := writeFile(t, "blocks.json", `[{"pathParams": {"_id_": "12a"}}, {"pathParams": {}}]`)
	code, out, _ := runCLI(t, "check", "-kind", "card_blocks", file)
	if code != exitInvalid {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"card_blocks, INVALID: 2 of 2 elements invalid, 2 errors, 0 warnings",
		`element 0 /pathParams/_id_: error: pathParams._id_ may contain only digits; found "12a"`,
		"element 1 /pathParams/_id_: error: pathParams._id_ is required",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestCheckUsageAndUnreadableInput(t *testing.T) {
	valid := filepath.Join("..", "..", "schema", "testdata", "valid", "sends.json")
	tests := []struct {
		name string
		args []string
		says string
	}{
		{"no kind", []string{"check", valid}, "usage: bulkdesk check"},
		{"unknown kind", []string{"check", "-kind", "payments", valid}, `unknown bulk kind "payments"`},
		{"no back-office variant", []string{"check", "-kind", "sends", "-backoffice", valid}, "no back-office variant"},
		{"bad format", []string{"check", "-kind", "sends", "-format", "xml", valid}, "usage"},
		{"missing file", []string{"check", "-kind", "sends", "nope.json"}, "nope.json"},
		{"syntax error", []string{"check", "-kind", "sends", writeFile(t, "broken.json", "[\n  {\"a\": 1,}\n]")}, "broken.json: not a JSON request body: line 2, column 11"},
		{"unknown command", []string{"chek"}, `unknown command "chek"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tc.args...)
			if code != exitUsage || out != "" || !strings.Contains(errOut, tc.says) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 saying %q", code, out, errOut, tc.says)
			}
		})
	}
}

func TestCheckBackOfficeKind(t *testing.T) {
	code, _, errOut := runCLI(t, "check", "-kind", "card_spend_rules", "-backoffice", filepath.Join("..", "..", "schema", "testdata", "valid", "card_spend_rules.json"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}
