package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/schema"
)

const referencedTransfer = `[{"requestBody": {"profileId": "1", "reference": "INV-1"}}, {"requestBody": {"profileId": "2"}}]`

func TestCheckAgainstANewerContract(t *testing.T) {
	contract := writeFile(t, "api.json", fixture.NewerContract)
	body := writeFile(t, "req.json", referencedTransfer)
	code, out, errOut := runCLI(t, "check", "-kind", "transfers", "-contract", contract, body)
	if code != exitInvalid || errOut != "" {
		t.Fatalf("exit %d, stderr %q, out %q", code, errOut, out)
	}
	if !strings.Contains(out, "reference is required") || !strings.Contains(out, "1 of 2 elements invalid") {
		t.Errorf("out %q", out)
	}
	// The built-in contract knows no reference and wants more fields.
	code, out, _ = runCLI(t, "check", "-kind", "transfers", body)
	if code != exitInvalid || strings.Contains(out, "reference is required") || !strings.Contains(out, "reference is not a field") {
		t.Errorf("built-in: exit %d, out %q", code, out)
	}
	// A kind the contract lacks is a request-level error that says so.
	code, out, _ = runCLI(t, "check", "-kind", "sends", "-contract", contract, body)
	if code != exitInvalid || !strings.Contains(out, "has no sends bulk") {
		t.Errorf("missing kind: exit %d, out %q", code, out)
	}
}

func TestABadContractIsRefusedWithItsPlace(t *testing.T) {
	body := writeFile(t, "req.json", referencedTransfer)
	for name, content := range map[string]string{
		"notes.txt":  "just some notes\n",
		"broken.yml": strings.Replace(fixture.NewerContract, `"pattern": "^[0-9]+$"`, `"$ref": "#/components/schemas/Missing"`, 1),
		"other.yml":  `{"openapi": "3.1.0", "info": {"title": "x", "version": "1"}, "paths": {"/pets": {"get": {}}}}`,
	} {
		file := writeFile(t, name, content)
		code, _, errOut := runCLI(t, "check", "-kind", "transfers", "-contract", file, body)
		if code != exitUsage || !strings.Contains(errOut, file) {
			t.Errorf("%s: exit %d, stderr %q", name, code, errOut)
		}
	}
}

func TestStrictMakesAdviceErrors(t *testing.T) {
	seeds, err := os.ReadFile(filepath.Join("..", "..", "schema", "testdata", "valid", "outgoing_wire_transfers.json"))
	if err != nil {
		t.Fatal(err)
	}
	// The first seed is a SEPA wire; without its reference the API
	// accepts it, but its documentation says SEPA needs one.
	body := writeFile(t, "wires.json", strings.Replace(string(seeds), `"description": "`, `"note": "`, 1))
	code, out, _ := runCLI(t, "check", "-kind", "outgoing_wire_transfers", body)
	if code != exitOK || !strings.Contains(out, "sepa-reference") && !strings.Contains(out, "SEPA") {
		t.Errorf("lenient: exit %d, out %q", code, out)
	}
	code, out, _ = runCLI(t, "check", "-kind", "outgoing_wire_transfers", "-strict", body)
	if code != exitInvalid || !strings.Contains(out, "SEPA") {
		t.Errorf("strict: exit %d, out %q", code, out)
	}
}

func TestContractDeriveReproducesTheBuiltInSchemas(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "contract", "derive", "-o", dir, filepath.Join("..", "..", "schema", "contract", "testdata", "multi-bulks.yml"))
	if code != exitOK || !strings.Contains(out, "wrote 9 schemas") {
		t.Fatalf("exit %d, out %q, stderr %q", code, out, errOut)
	}
	for kind, want := range schema.Builtin().Schemas {
		got, err := os.ReadFile(filepath.Join(dir, kind+".json"))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %v, or not the built-in schema", kind, err)
		}
	}
}

func TestContractDiffSaysWhatChanged(t *testing.T) {
	contract := writeFile(t, "api.json", fixture.NewerContract)
	code, out, errOut := runCLI(t, "contract", "diff", contract)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{
		"Test API 9.9",
		"reference: added, required: text; at most 20 characters",
		"source.id: removed",
		"sends:\n    (the kind): the contract has no sends bulk",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

func TestTemplateOfANewerContract(t *testing.T) {
	contract := writeFile(t, "api.json", fixture.NewerContract)
	out := filepath.Join(t.TempDir(), "t.csv")
	if code, _, errOut := runCLI(t, "template", "-kind", "transfers", "-contract", contract, "-o", out); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(strings.TrimPrefix(string(data), "\ufeff"), "profileId *,reference *") {
		t.Errorf("template %q", data)
	}
}
