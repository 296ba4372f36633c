package schema_test

import (
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/bulkdesk/bulkdesk/schema/contract"
	"github.com/bulkdesk/bulkdesk/schema/contract/load"
)

// currencyProblems returns the problems at pointer of one element whose
// currency at pointer is set to code.
func currencyProblems(t *testing.T, v *schema.Validator, kind string, seed int, pointer, code string) []schema.Problem {
	t.Helper()
	el := deepCopy(seeds(t, kind)[seed])
	if !setAt(el, pointer, code, false) {
		t.Fatalf("%s seed %d has no %s", kind, seed, pointer)
	}
	var out []schema.Problem
	for _, p := range v.ValidateElement(fixture.Kind(kind), 2, el) {
		if p.Pointer == pointer {
			out = append(out, p)
		}
	}
	return out
}

// A currency of three capital letters that ISO 4217 does not know passes
// the contract's pattern: it is a warning at its cell, naming the code and
// the codes one letter away, in the validator's language, and an error
// when the validation is strict. The value is never changed.
func TestAnUnknownCurrencyIsAWarningAtItsCell(t *testing.T) {
	const ptr = "/requestBody/destinationAmount/currency"
	for _, tc := range []struct {
		l    lang.Tag
		says []string
	}{
		{lang.English, []string{"EUD is not an ISO 4217 currency code (did you mean AUD or EUR?)", "refuses the operation when the bulk runs"}},
		{lang.German, []string{"EUD ist kein ISO-4217-Währungscode (meinten Sie AUD oder EUR?)", "bei der Ausführung ab"}},
		{lang.French, []string{"EUD n’est pas un code de devise ISO 4217 (vouliez-vous dire AUD ou EUR\u202f?)", "à son exécution"}},
	} {
		t.Run(string(tc.l), func(t *testing.T) {
			for _, strict := range []bool{false, true} {
				v, err := schema.NewValidatorFor(schema.Builtin(), schema.Options{Language: tc.l, Strict: strict})
				if err != nil {
					t.Fatal(err)
				}
				v.Now = fixture.Validator().Now
				ps := currencyProblems(t, v, "transfers", 0, ptr, "EUD")
				want := schema.Warning
				if strict {
					want = schema.Error
				}
				if len(ps) != 1 || ps[0].Code != schema.CurrencyCode || ps[0].Severity != want || ps[0].Element != 2 ||
					ps[0].Field != "destinationAmount.currency" || ps[0].Value != `"EUD"` {
					t.Fatalf("strict=%v: %+v, want one %s %s", strict, ps, want, schema.CurrencyCode)
				}
				for _, s := range tc.says {
					if !strings.Contains(ps[0].Message, s) {
						t.Errorf("strict=%v: %q does not say %q", strict, ps[0].Message, s)
					}
				}
			}
		})
	}
}

// Every currency field of every kind is checked, the items of a list
// each at its own place.
func TestEveryCurrencyFieldIsChecked(t *testing.T) {
	v := fixture.Validator()
	for _, tc := range []struct {
		kind    string
		seed    int
		pointer string
	}{
		{"transfers", 0, "/requestBody/destinationAmount/currency"},
		{"sends", 0, "/requestBody/destinationAmount/currency"},
		{"outgoing_wire_transfers", 0, "/requestBody/transferAmount/currency"},
		{"card_spend_rules", 0, "/requestBody/spendLimit/1/value/currency"},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			ps := currencyProblems(t, v, tc.kind, tc.seed, tc.pointer, "QQQ")
			if len(ps) != 1 || ps[0].Code != schema.CurrencyCode || ps[0].Severity != schema.Warning {
				t.Fatalf("%+v, want one warning at %s", ps, tc.pointer)
			}
			if strings.Contains(ps[0].Message, "did you mean") {
				t.Errorf("%q suggests a code for QQQ, which no code is one letter away from", ps[0].Message)
			}
		})
	}
	for _, k := range schema.Kinds() {
		for _, f := range v.Fields(k) {
			if strings.HasSuffix(f.Path, ".currency") && !slicesContain(schema.TheOverlay().For(k), schema.CurrencyCode) {
				t.Errorf("%s has the currency field %s, which iso-4217-currency does not check", k.ID, f.Path)
			}
		}
	}
}

func slicesContain(entries []schema.OverlayEntry, id string) bool {
	for _, e := range entries {
		if e.ID == id {
			return true
		}
	}
	return false
}

// Every code of three capital letters passes without a word when ISO 4217
// has it, and is a warning when it does not.
func TestOnlyISOCodesPass(t *testing.T) {
	v := fixture.Validator()
	const ptr = "/requestBody/destinationAmount/currency"
	el := deepCopy(seeds(t, "transfers")[0])
	k := fixture.Kind("transfers")
	valid := 0
	for a := 'A'; a <= 'Z'; a++ {
		for b := 'A'; b <= 'Z'; b++ {
			for c := 'A'; c <= 'Z'; c++ {
				code := string([]rune{a, b, c})
				setAt(el, ptr, code, false)
				ps := v.ValidateElement(k, 0, el)
				if money.Valid(code) {
					valid++
					if len(ps) != 0 {
						t.Errorf("%s: %+v", code, ps)
					}
				} else if len(ps) != 1 || ps[0].Code != schema.CurrencyCode || ps[0].Severity != schema.Warning {
					t.Errorf("%s: %+v, want the one warning", code, ps)
				}
			}
		}
	}
	if valid < 150 {
		t.Errorf("only %d codes passed", valid)
	}
}

// A currency the contract refuses keeps its error alone: no second
// problem at the cell.
func TestACurrencyTheContractRefusesKeepsItsError(t *testing.T) {
	const ptr = "/requestBody/destinationAmount/currency"
	for _, code := range []string{"eur", "EURO", "E1R", ""} {
		ps := currencyProblems(t, fixture.Validator(), "transfers", 0, ptr, code)
		if len(ps) != 1 || ps[0].Severity != schema.Error || ps[0].Code == schema.CurrencyCode {
			t.Errorf("%q: %+v, want the contract's error alone", code, ps)
		}
	}
	ps := currencyProblems(t, fixture.Validator(), "transfers", 0, ptr, "eur")
	if len(ps) == 1 && (ps[0].Code != "pattern" || !strings.Contains(ps[0].Message, "use capital letters")) {
		t.Errorf("eur: %+v, want the pattern error that says to use capital letters", ps[0])
	}
}

// A contract loaded at run time is checked the same way; where it lets
// any text through as a currency, the warning suggests the code written
// in capitals, and never changes the value.
func TestALoadedContractsCurrenciesAreChecked(t *testing.T) {
	const newer = `{"openapi": "3.1.0", "info": {"title": "Test API", "version": "9.9"},
 "paths": {"/bulks/transfers": {"post": {"requestBody": {"content": {"application/json": {"schema": {
  "type": "array", "items": {"type": "object", "properties": {
   "requestBody": {"type": "object", "required": ["destinationAmount"], "properties": {
    "destinationAmount": {"type": "object", "properties": {"currency": {"type": "string"}, "amount": {"type": "integer"}}}}}}}}}}}}}}}`
	c, err := load.Derive("newer.json", []byte(newer), contract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v, err := schema.NewValidatorFor(load.Source(c), schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	el := fixture.Decode(`{"requestBody": {"destinationAmount": {"currency": "eur", "amount": 100}}}`)
	ps := v.ValidateElement(fixture.Kind("transfers"), 0, el)
	if len(ps) != 1 || ps[0].Code != schema.CurrencyCode || ps[0].Severity != schema.Warning ||
		!strings.Contains(ps[0].Message, `"eur" is not an ISO 4217 currency code (did you mean EUR?)`) {
		t.Errorf("%+v", ps)
	}
	if got := el.(map[string]any)["requestBody"].(map[string]any)["destinationAmount"].(map[string]any)["currency"]; got != "eur" {
		t.Errorf("the value became %v", got)
	}
}
