package contract_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/bulkdesk/bulkdesk/schema/contract"
)

func derive(t *testing.T, file string) *contract.Contract {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	c, err := contract.Derive(file, data, bulkTargets, contract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func schemaOf(t *testing.T, c *contract.Contract, kind string) []byte {
	t.Helper()
	for _, s := range c.Schemas {
		if s.Kind == kind {
			return s.JSON
		}
	}
	t.Fatalf("no schema for %s", kind)
	return nil
}

func decode(t *testing.T, js []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(js, &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, js)
	}
	return m
}

// keywords calls fn with every keyword of a schema and its subschemas,
// telling keywords apart from the names under properties and $defs.
func keywords(v any, at string, fn func(keyword, at string)) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	for k, sub := range m {
		fn(k, at)
		switch k {
		case "properties", "$defs":
			for name, s := range sub.(map[string]any) {
				keywords(s, at+"/"+k+"/"+name, fn)
			}
		case "items", "not", "if", "then", "else", "additionalProperties":
			keywords(sub, at+"/"+k, fn)
		case "allOf", "anyOf", "oneOf", "prefixItems":
			for _, s := range sub.([]any) {
				keywords(s, at+"/"+k, fn)
			}
		}
	}
}

func TestStandardContract(t *testing.T) {
	c := derive(t, "multi-bulks.yml")
	if len(c.Schemas) != 9 || len(c.Missing) != 0 {
		t.Fatalf("got %d schemas, missing %v; want 9 and none", len(c.Schemas), c.Missing)
	}
	if c.OpenAPI != "3.1.0" || c.Title != "Bulk operations of the standard API (facts only)" || c.Version != "v3" || c.Source != "multi-bulks.yml" {
		t.Errorf("header: %q %q %q %q", c.Source, c.OpenAPI, c.Title, c.Version)
	}
	for i, s := range c.Schemas {
		if s.Kind != bulkTargets[i].Kind || s.Endpoint != bulkTargets[i].Method+" "+bulkTargets[i].Path {
			t.Errorf("schema %d: %s %s, want the targets' order", i, s.Kind, s.Endpoint)
		}
		if !bytes.HasSuffix(s.JSON, []byte("}\n")) || !bytes.HasPrefix(s.JSON, []byte("{\n  \"$schema\": \"https://json-schema.org/draft/2020-12/schema\",\n  \"$id\": \"https://bulkdesk.invalid/schema/"+s.Kind+".json\",\n  \"$comment\": \"Derived from Bulk operations of the standard API (facts only) v3: "+s.Endpoint+"\",\n")) {
			t.Errorf("%s: unexpected header or ending:\n%s", s.Kind, s.JSON)
		}
		if bytes.Contains(s.JSON, []byte("#/components/")) {
			t.Errorf("%s: a reference is not rewritten", s.Kind)
		}
		m := decode(t, s.JSON)
		defs, _ := m["$defs"].(map[string]any)
		keywords(m, "", func(k, at string) {
			if k == "description" || k == "title" || k == "example" {
				t.Errorf("%s: keyword %q at %s", s.Kind, k, at)
			}
		})
		// Every reference must land in $defs.
		for _, r := range regexpRefs(s.JSON) {
			name := strings.TrimPrefix(r, "#/$defs/")
			if _, ok := defs[name]; !ok || name == r {
				t.Errorf("%s: $ref %q not in $defs", s.Kind, r)
			}
		}
	}

	tr := decode(t, schemaOf(t, c, "transfers"))
	var names []string
	for k := range tr["$defs"].(map[string]any) {
		names = append(names, k)
	}
	for _, want := range []string{"CurrencyAmount", "InstrumentId", "ProfileId", "Tag", "Id", "InstrumentType", "Currency", "ScheduledTimestamp"} {
		if _, ok := tr["$defs"].(map[string]any)[want]; !ok {
			t.Errorf("transfers: $defs lacks %s (has %v)", want, names)
		}
	}
	if len(names) != 8 {
		t.Errorf("transfers: $defs has %v, want only the 8 reached", names)
	}
	body := tr["properties"].(map[string]any)["requestBody"].(map[string]any)
	desc, ok := body["properties"].(map[string]any)["description"].(map[string]any)
	if !ok || desc["maxLength"] != 255.0 || desc["type"] != "string" {
		t.Errorf("transfers: the property named description is lost: %v", body["properties"])
	}
	// Patterns keep <, > and & as they are.
	if !bytes.Contains(schemaOf(t, c, "transfers"), []byte(`%&*<>;`)) {
		t.Error("transfers: <, > or & escaped")
	}
	src := decode(t, schemaOf(t, c, "sends"))["$defs"].(map[string]any)["SendCreateRequest"].(map[string]any)
	if got := src["properties"].(map[string]any)["destination"].(map[string]any)["oneOf"].([]any)[1].(map[string]any)["$ref"]; got != "#/$defs/BeneficiaryId" {
		t.Errorf("sends: destination oneOf ref = %v", got)
	}

	again := derive(t, "multi-bulks.yml")
	for i := range c.Schemas {
		if !bytes.Equal(c.Schemas[i].JSON, again.Schemas[i].JSON) {
			t.Errorf("%s: output differs between runs", c.Schemas[i].Kind)
		}
	}
	if len(c.Notes) != 0 {
		t.Errorf("facts-only contract gave notes: %v", c.Notes)
	}
}

func regexpRefs(js []byte) []string {
	var out []string
	for _, line := range strings.Split(string(js), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, `"$ref": "`) {
			out = append(out, strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(line, `"$ref": "`), ","), `"`))
		}
	}
	return out
}

// The derived schemas must be usable: they compile as draft 2020-12 and
// tell a good row from a bad one.
func TestSchemasValidate(t *testing.T) {
	c := derive(t, "multi-bulks.yml")
	comp := jsonschema.NewCompiler()
	for _, s := range c.Schemas {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(s.JSON))
		if err != nil {
			t.Fatal(err)
		}
		if err := comp.AddResource(s.Kind+".json", doc); err != nil {
			t.Fatal(err)
		}
	}
	tr, err := comp.Compile("transfers.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range c.Schemas {
		if _, err := comp.Compile(s.Kind + ".json"); err != nil {
			t.Errorf("%s: %v", s.Kind, err)
		}
	}
	row := func(amount string) any {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(`{"pathParams": {}, "requestBody": {"profileId": "12",
			"source": {"id": "1", "type": "managed_accounts"}, "destination": {"id": "2", "type": "managed_cards"},
			"destinationAmount": {"currency": "EUR", "amount": ` + amount + `}, "description": "Rent <May> & more"}}`))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if err := tr.Validate(row("1000")); err != nil {
		t.Errorf("good row refused: %v", err)
	}
	if err := tr.Validate(row(`"ten"`)); err == nil {
		t.Error("row with a string amount accepted")
	}
}

func TestBackOfficeSameAsStandard(t *testing.T) {
	std := derive(t, "multi-bulks.yml")
	bo := derive(t, "backoffice-bulks.yml")
	if len(bo.Schemas) != 2 || len(bo.Missing) != 7 {
		t.Fatalf("back-office: %d schemas, %d missing; want 2 and 7", len(bo.Schemas), len(bo.Missing))
	}
	for _, kind := range []string{"transfers", "card_spend_rules"} {
		a, b := withoutComment(schemaOf(t, std, kind)), withoutComment(schemaOf(t, bo, kind))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between the contracts:\n%s\n---\n%s", kind, a, b)
		}
	}
}

func withoutComment(js []byte) []byte {
	var out [][]byte
	for _, l := range bytes.Split(js, []byte("\n")) {
		if !bytes.HasPrefix(l, []byte(`  "$comment": `)) {
			out = append(out, l)
		}
	}
	return bytes.Join(out, []byte("\n"))
}

func TestWriteDir(t *testing.T) {
	c := derive(t, "multi-bulks.yml")
	dir := filepath.Join(t.TempDir(), "out")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := c.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 10 {
		t.Errorf("dir has %d entries, want 9 schemas and keep.txt", len(entries))
	}
	for _, s := range c.Schemas {
		got, err := os.ReadFile(filepath.Join(dir, s.Kind+".json"))
		if err != nil || !bytes.Equal(got, s.JSON) {
			t.Errorf("%s.json: %v", s.Kind, err)
		}
	}
	bad := &contract.Contract{Schemas: []contract.Schema{{Kind: "../x", JSON: []byte("{}\n")}}}
	if err := bad.WriteDir(dir); err == nil {
		t.Error("a kind naming another directory was written")
	}
}

// BenchmarkDerive derives every bulk kind from a contract file: the
// reduced reference in testdata, or the file $BULKDESK_CONTRACT names
// (the API's whole contract, say).
func BenchmarkDerive(b *testing.B) {
	path := os.Getenv("BULKDESK_CONTRACT")
	if path == "" {
		path = "testdata/multi-bulks.yml"
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := contract.Derive(path, data, bulkTargets, contract.Options{KeepDescriptions: true}); err != nil {
			b.Fatal(err)
		}
	}
}
