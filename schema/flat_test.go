package schema_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/bulkdesk/bulkdesk/schema/contract"
	"github.com/bulkdesk/bulkdesk/schema/contract/load"
)

// The flat path (an element checked from its bytes, never decoded when
// it finds nothing) may only ever call an element clean when the full
// path, decoded values through the library, the explanations, the
// unknown-field check and the overlay's advice, finds no problem at all;
// and a body checked from its bytes must give exactly the report of the
// body decoded. These tests hold the two paths to that on the seeds,
// thousands of mutations of them, the files of the ingest corpus, and
// fuzzed input, for the built-in contract and for contracts loaded at run
// time.

// contractValidators returns the validators the flat path is held to:
// the built-in contract, the back-office contract and a newer contract,
// both derived at run time as the console loads a contract file.
func contractValidators(t testing.TB) map[string]*schema.Validator {
	t.Helper()
	out := map[string]*schema.Validator{"built-in": fixture.Validator()}
	data, err := os.ReadFile(filepath.Join("contract", "testdata", "backoffice-bulks.yml"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := load.Derive("backoffice-bulks.yml", data, contract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]*schema.Source{"back-office": load.Source(c), "newer": fixture.NewerSource()} {
		v, err := schema.NewValidatorFor(src, schema.Options{})
		if err != nil {
			t.Fatal(err)
		}
		v.Now = func() time.Time { return fixture.Now }
		out[name] = v
	}
	return out
}

// adviceValues are values the contract takes and the overlay's advice
// does not: a currency ISO 4217 does not know, amounts of zero and below,
// times in seconds, in the past, far ahead.
var adviceValues = []any{
	"EUD", "XXQ", json.Number("0"), json.Number("-0.00"), json.Number("-5"), json.Number("0e5"),
	"1700000000", "1000000000000", "99999999999999", "4102444800000",
	json.Number("99999999999999999999"), json.Number("1.5"),
}

// corpusElements returns every element the tests know, written as JSON:
// the seeds of every kind, mutations of them, and the elements of the
// ingest corpus's JSON files.
func corpusElements(t testing.TB, mutations int) [][]byte {
	t.Helper()
	var out [][]byte
	add := func(v any) { out = append(out, marshal(t, v)) }
	rng := rand.New(rand.NewPCG(3, 4))
	v := fixture.Validator()
	for _, k := range schema.Kinds() {
		for _, seed := range seeds(t, k.ID) {
			add(seed)
			for _, f := range v.Fields(k) {
				ptr := fieldPointer(f.Path)
				if orig, ok := getAt(seed, ptr); ok {
					for _, m := range violations(f, orig) {
						el := deepCopy(seed)
						setAt(el, ptr, m.value, m.delete)
						add(el)
					}
				}
			}
			// Every value the advice speaks of, at every place it looks.
			for _, entry := range schema.TheOverlay().Entries {
				if entry.Severity != schema.Advise {
					continue
				}
				for _, p := range entry.Pointers {
					p = strings.ReplaceAll(p, "*", "0")
					if _, ok := getAt(seed, p); !ok {
						continue
					}
					for _, val := range adviceValues {
						el := deepCopy(seed)
						setAt(el, p, val, false)
						add(el)
					}
				}
			}
			pointers := allPointers(seed, "")
			for range mutations {
				el := deepCopy(seed)
				for range 1 + rng.IntN(3) {
					p := pointers[rng.IntN(len(pointers))]
					switch rng.IntN(5) {
					case 0:
						setAt(el, p, nil, true)
					case 1:
						setAt(el, p+"x", "stray", false) // an unknown field
					case 2:
						setAt(el, p, adviceValues[rng.IntN(len(adviceValues))], false)
					default:
						setAt(el, p, deepCopy(oddValues[rng.IntN(len(oddValues))]), false)
					}
				}
				add(el)
			}
		}
	}
	files, _ := filepath.Glob(filepath.Join("..", "app", "ingest", "testdata", "corpus", "*.json"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if doc, _, err := schema.DecodeJSON(data); err == nil {
			if list, ok := doc.([]any); ok {
				for _, el := range list {
					add(el)
				}
			}
		}
	}
	// What the flat reader must see through: escapes, other spacing,
	// unicode, repeated keys.
	out = append(out,
		[]byte(`{"requestBody":{"profileId":"1","description":"caf\u00e9 \"x\""}}`),
		[]byte(` { "pathParams" : { } , "requestBody" : { "profileId" : "12" } } `),
		[]byte(`{"requestBody":{"profileId":"1"},"requestBody":{"profileId":"x"}}`),
		[]byte(`{"request\u0042ody":{}}`),
		[]byte(`[]`), []byte(`"x"`), []byte(`12`), []byte(`null`), []byte(`{}`),
		// The newer contract's transfers (fixture.NewerContract).
		[]byte(`{"requestBody":{"profileId":"110323","reference":"INV-2026-11"}}`),
		[]byte(`{"pathParams":{},"requestBody":{"profileId":"1","reference":"`+strings.Repeat("é", 20)+`"}}`),
		[]byte(`{"requestBody":{"profileId":"1","reference":"`+strings.Repeat("é", 21)+`"}}`),
		[]byte(`{"requestBody":{"profileId":"x1","reference":"R"}}`),
		[]byte(`{"requestBody":{"profileId":"1","reference":7}}`),
	)
	return out
}

// TestTheFlatPathAgreesWithTheFullPath checks every element of the
// corpus, for every kind of every contract, through the flat path and
// the full one.
func TestTheFlatPathAgreesWithTheFullPath(t *testing.T) {
	mutations := 60
	if testing.Short() {
		mutations = 8
	}
	elements := corpusElements(t, mutations)
	for name, v := range contractValidators(t) {
		fast, clean, sure := 0, 0, 0
		for _, k := range schema.Kinds() {
			if v.Has(k) != nil {
				continue
			}
			for _, raw := range elements {
				el, _, err := schema.DecodeJSON(raw)
				if err != nil {
					t.Fatal(err)
				}
				full := v.ValidateElement(k, 0, el)
				if len(full) == 0 {
					clean++
				}
				if pre, certain, lib := schema.FlatVerdicts(v, k, raw); certain {
					sure++
					if pre != lib {
						t.Errorf("%s %s: the flat pre-check says valid=%v, the library valid=%v, for %s", name, k.ID, pre, lib, raw)
					}
				}
				if schema.FastValid(v, k, raw) {
					fast++
					if len(full) != 0 {
						t.Errorf("%s %s: the flat path takes %s for clean, the full path finds %v", name, k.ID, raw, full)
					}
				}
				if got := v.ValidateRaw(k, 0, raw); !reflect.DeepEqual(sorted(got), sorted(full)) {
					t.Errorf("%s %s: %s from its bytes gives %v, decoded %v", name, k.ID, raw, got, full)
				}
			}
		}
		t.Logf("%s: %d of %d clean elements taken by the flat path, %d flat verdicts certain", name, fast, clean, sure)
		// A flat path that gives up on every element would agree with
		// anything: it must take most clean elements.
		if fast*10 < clean*9 {
			t.Errorf("%s: the flat path takes only %d of %d clean elements", name, fast, clean)
		}
	}
}

// TestEveryCleanSeedIsTakenFlat holds the flat path to its purpose: the
// seeds use every field of every kind, and each is clean, so each must
// be taken without being decoded.
func TestEveryCleanSeedIsTakenFlat(t *testing.T) {
	v := fixture.Validator()
	for _, k := range schema.Kinds() {
		for i, seed := range seeds(t, k.ID) {
			raw := marshal(t, seed)
			if !schema.FastValid(v, k, raw) {
				t.Errorf("%s seed %d is clean but the flat path does not take it: %s", k.ID, i, raw)
			}
		}
	}
}

// TestABodyFromItsBytesGivesTheDecodedReport checks whole bodies: the
// report of a body checked from its bytes is the report of the body
// decoded, keys written twice, request-level problems and the cut of a
// long list of problems included, and a body ReadBody does not take is
// one DecodeJSON refuses or that is not an array.
func TestABodyFromItsBytesGivesTheDecodedReport(t *testing.T) {
	elements := corpusElements(t, 4)
	var all [][]byte
	for i := 0; i < len(elements); i += 97 {
		all = append(all, elements[i:min(i+97, len(elements))]...)
	}
	bodies := [][]byte{
		[]byte(`[]`), []byte(" \ufeff[]"), []byte("\ufeff [ ] "), []byte(`{}`), []byte(`"x"`), []byte(`[`),
		[]byte(`[{"requestBody":{"a":1,"a":2}},{"pathParams":{},"pathParams":{"x":{"y":1,"y":2}}}]`),
		[]byte(`[{"a":"b"},{"c":"d"}]`), []byte(`[{"a":"b"},{"pathParams":{}}]`), []byte(`[1,2]`), []byte(`[{"a":1}]x`),
		[]byte(`[{"a":01}]`), []byte(`[{"a":"\ud800"}]`), []byte("[{\"a\":\"\x01\"}]"), []byte(`[{"a" 1}]`),
		append(append([]byte("["), bytes.Repeat([]byte(`{},`), schema.MaxElements)...), []byte("{}]")...),
		[]byte(strings.Repeat("[", 70) + strings.Repeat("]", 70)),
	}
	for start := 0; start < len(all); start += 500 {
		bodies = append(bodies, append(append([]byte("["), bytes.Join(all[start:min(start+500, len(all))], []byte(",\n"))...), ']'))
	}
	for name, v := range contractValidators(t) {
		for _, k := range schema.Kinds() {
			if v.Has(k) != nil {
				continue
			}
			for _, body := range bodies {
				compareBody(t, fmt.Sprintf("%s %s", name, k.ID), v, k, body)
			}
		}
	}
}

// compareBody checks one body through ReadBody and CheckBody, and
// through DecodeJSON and CheckDocument.
func compareBody(t *testing.T, name string, v *schema.Validator, k *schema.Kind, body []byte) {
	t.Helper()
	doc, dups, err := schema.DecodeJSON(body)
	b, ok := schema.ReadBody(body)
	list, isArray := doc.([]any)
	if ok != (err == nil && isArray) {
		t.Fatalf("%s: ReadBody ok=%v, DecodeJSON error %v, array %v, for %.80s", name, ok, err, isArray, body)
	}
	if !ok {
		return
	}
	if b.Len() != len(list) || !reflect.DeepEqual(b.Dups(), dups) {
		t.Fatalf("%s: %d elements and repeats %v from the bytes, %d and %v decoded", name, b.Len(), b.Dups(), len(list), dups)
	}
	reader := b.Reader()
	for i := range list {
		el, err := b.Element(i)
		if err != nil || !reflect.DeepEqual(el, list[i]) {
			t.Fatalf("%s: element %d decodes to %v (%v), within the body to %v", name, i, el, err, list[i])
		}
		if el, err := reader.Element(i); err != nil || !reflect.DeepEqual(el, list[i]) {
			t.Fatalf("%s: element %d decodes by a reader to %v (%v), within the body to %v", name, i, el, err, list[i])
		}
		for _, p := range valuePointers {
			want, _ := getAt(list[i], p)
			if got := b.ValueAt(i, pointerTokens(p)); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: element %d holds %v at %s, read flat %v", name, i, want, p, got)
			}
			if got := reader.ValueAt(i, pointerTokens(p)); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: element %d holds %v at %s, read by a reader %v", name, i, want, p, got)
			}
		}
	}
	got, want := v.CheckBody(k, b), v.CheckDocument(k, doc, dups)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: the report from the bytes differs from the decoded one for %.200s:\n%v\n%v", name, body, got.Problems, want.Problems)
	}
}

// FuzzFlatPath feeds arbitrary bytes to both paths, as a body and as one
// element, for every kind of the built-in contract.
func FuzzFlatPath(f *testing.F) {
	for _, raw := range corpusElements(f, 0) {
		f.Add(raw)
	}
	f.Add([]byte(`[{"requestBody":{"profileId":"1"}},{"a":1,"a":2}]`))
	v := fixture.Validator()
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, k := range schema.Kinds() {
			compareBody(t, k.ID, v, k, data)
			el, _, err := schema.DecodeJSON(data)
			if err != nil {
				continue
			}
			full := v.ValidateElement(k, 0, el)
			if schema.FastValid(v, k, data) && len(full) != 0 {
				t.Fatalf("%s: the flat path takes %s for clean, the full path finds %v", k.ID, data, full)
			}
			if pre, certain, lib := schema.FlatVerdicts(v, k, data); certain && pre != lib {
				t.Fatalf("%s: the flat pre-check says valid=%v, the library valid=%v", k.ID, pre, lib)
			}
			if got := v.ValidateRaw(k, 0, data); !reflect.DeepEqual(sorted(got), sorted(full)) {
				t.Fatalf("%s: from its bytes %v, decoded %v", k.ID, got, full)
			}
		}
	})
}

// sorted puts problems in the order of a report: the unknown-field
// check walks a decoded element's keys in the map's order.
func sorted(ps []schema.Problem) []schema.Problem {
	r := &schema.Report{Problems: ps}
	r.Sort()
	return r.Problems
}

// marshal writes v as a file would, without escaping & < >: an escaped
// string is one the flat path leaves to the decoded one.
func marshal(t testing.TB, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// valuePointers are the places ValueAt is compared at: the amounts and
// ids the plausibility checks read, and values of every type.
var valuePointers = []string{
	"/requestBody/destinationAmount", "/requestBody/destinationAmount/amount", "/requestBody/profileId",
	"/requestBody/description", "/pathParams", "/requestBody/spendLimit/0/value", "/requestBody/allowAtm",
	"/requestBody/a", "/a", "/0", "/requestBody/destination/id",
}
