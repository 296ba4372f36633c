package schema_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/schema"
)

func TestSeedsUseEveryFieldAndAreClean(t *testing.T) {
	v := fixture.Validator()
	for _, k := range schema.Kinds() {
		t.Run(k.ID, func(t *testing.T) {
			elements := seeds(t, k.ID)
			r := v.ValidateRequest(k, elements)
			for _, p := range r.Problems {
				t.Errorf("element %d %s: %s", p.Element, p.Pointer, p.Message)
			}
			for _, f := range v.Fields(k) {
				found := false
				for _, e := range elements {
					if _, ok := getAt(e, fieldPointer(f.Path)); ok {
						found = true
						break
					}
				}
				if !found {
					t.Errorf("no seed element uses field %s", f.Path)
				}
			}
		})
	}
}

// mutation is one way to break one constraint of a field.
type mutation struct {
	code   string
	value  any
	delete bool
}

// violations returns a value that breaks each constraint of f, starting
// from the field's valid value orig.
func violations(f schema.Field, orig any) []mutation {
	var out []mutation
	if f.Required {
		out = append(out, mutation{code: "required", delete: true})
	}
	switch f.Type {
	case "string", "array":
		out = append(out, mutation{code: "type", value: json.Number("12")})
	case "integer":
		out = append(out, mutation{code: "type", value: "12"}, mutation{code: "type", value: json.Number("12.5")})
	case "boolean":
		out = append(out, mutation{code: "type", value: "yes"})
	}
	wrap := func(v any) any {
		if f.Type == "array" {
			return []any{v}
		}
		return v
	}
	s, _ := orig.(string)
	if f.Type == "array" {
		if items, ok := orig.([]any); ok && len(items) > 0 {
			s, _ = items[0].(string)
		}
	}
	if len(f.Enum) > 0 {
		out = append(out, mutation{code: "enum", value: wrap("NOT_ALLOWED")})
	}
	if f.Pattern != "" && s != "" {
		out = append(out, mutation{code: "pattern", value: wrap("~" + s[1:])})
	}
	if f.MinLength != nil && *f.MinLength > 0 && s != "" {
		out = append(out, mutation{code: "min-length", value: wrap(strings.Repeat(s[:1], *f.MinLength-1))})
	}
	if f.MaxLength != nil && s != "" {
		long := s + strings.Repeat(s[len(s)-1:], *f.MaxLength+1-len([]rune(s)))
		out = append(out, mutation{code: "max-length", value: wrap(long)})
	}
	if f.Minimum != "" {
		out = append(out, mutation{code: "minimum", value: json.Number(decrement(f.Minimum))})
	}
	if f.Maximum != "" {
		out = append(out, mutation{code: "maximum", value: json.Number(increment(f.Maximum))})
	}
	switch f.Format {
	case "email":
		out = append(out, mutation{code: "format", value: "ada.example.com"})
	case "date":
		out = append(out, mutation{code: "format", value: "2023-02-30"})
	case "int64":
		out = append(out, mutation{code: "format", value: json.Number("9223372036854775808")})
	}
	if f.MaxItems != nil {
		if items, ok := orig.([]any); ok && len(items) > 0 {
			long := make([]any, *f.MaxItems+1)
			for i := range long {
				long[i] = items[0]
			}
			out = append(out, mutation{code: "max-items", value: long})
		}
	}
	return out
}

func increment(n string) string {
	var i int64
	fmt.Sscan(n, &i)
	return fmt.Sprint(i + 1)
}

func decrement(n string) string {
	var i int64
	fmt.Sscan(n, &i)
	return fmt.Sprint(i - 1)
}

// TestEveryConstraintIsReportedAtItsField breaks, one at a time, every
// constraint of every field of every seed element, and checks that the
// report names that field, with the right code, and nothing else.
func TestEveryConstraintIsReportedAtItsField(t *testing.T) {
	v := fixture.Validator()
	cases := 0
	for _, k := range schema.Kinds() {
		for si, seed := range seeds(t, k.ID) {
			for _, f := range v.Fields(k) {
				ptr := fieldPointer(f.Path)
				orig, ok := getAt(seed, ptr)
				if !ok {
					continue
				}
				for _, m := range violations(f, orig) {
					cases++
					name := fmt.Sprintf("%s/%d/%s/%s", k.ID, si, f.Path, m.code)
					el := deepCopy(seed)
					if !setAt(el, ptr, m.value, m.delete) {
						t.Fatalf("%s: cannot set %s", name, ptr)
					}
					errs := errorsOf(v.ValidateElement(k, 0, el))
					if len(errs) == 0 {
						t.Errorf("%s: %s accepted", name, jsonString(m.value))
						continue
					}
					atField := false
					for _, p := range errs {
						switch {
						case strings.HasPrefix(p.Pointer, ptr):
							atField = true
							if !strings.Contains(p.Message, schema.FieldName(pointerTokens(p.Pointer))) {
								t.Errorf("%s: message %q does not name the field", name, p.Message)
							}
						case strings.HasPrefix(ptr, p.Pointer+"/") && f.Conditional:
							// changing a field that tells the forms of an object
							// apart is reported against the object
						case strings.Contains(p.Message, "the "+lastToken(ptr)+" is"):
							// a rule that depends on the changed field
						default:
							t.Errorf("%s: unrelated error at %s: %s", name, p.Pointer, p.Message)
						}
					}
					if atField && !hasCode(errs, m.code) {
						t.Errorf("%s: no %q error among %v", name, m.code, errs)
					}
					if !atField && !f.Conditional {
						t.Errorf("%s: no error at %s: %v", name, ptr, errs)
					}
				}
			}
		}
	}
	if cases < 300 {
		t.Errorf("only %d constraint cases were generated", cases)
	}
}

func lastToken(ptr string) string {
	t := pointerTokens(ptr)
	return t[len(t)-1]
}

func hasCode(ps []schema.Problem, code string) bool {
	for _, p := range ps {
		if p.Code == code {
			return true
		}
	}
	return false
}

// TestConditionalRules covers the rules that apply to one form of an
// object only, which the generated cases cannot reach: the contract's own,
// which are errors, and the overlay's advice, which are warnings unless
// the validation is strict.
func TestConditionalRules(t *testing.T) {
	v := fixture.Validator()
	strict, err := schema.NewValidatorFor(schema.Builtin(), schema.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	strict.Now = v.Now
	owt := seeds(t, "outgoing_wire_transfers")
	sepa, rix, swift, swiftIBAN, fp, legacyIBAN, legacyFP := owt[0], owt[1], owt[2], owt[3], owt[4], owt[7], owt[8]
	sends := seeds(t, "sends")
	tests := []struct {
		name     string
		kind     string
		seed     any
		edit     func(e any)
		pointer  string
		code     string
		says     string
		severity schema.Severity
	}{
		{"swift needs a purpose", "outgoing_wire_transfers", swift, del("/requestBody/purpose"), "/requestBody/purpose", "swift-purpose-reference", "SWIFT", schema.Warning},
		{"swift needs a reference", "outgoing_wire_transfers", swift, del("/requestBody/description"), "/requestBody/description", "swift-purpose-reference", "SWIFT", schema.Warning},
		{"swift reference at most 35", "outgoing_wire_transfers", swift, set("/requestBody/description", strings.Repeat("x", 36)), "/requestBody/description", "swift-purpose-reference", "35", schema.Warning},
		{"swift non-IBAN account needs a BIC", "outgoing_wire_transfers", swift, del("/requestBody/destinationBeneficiary/bankIdentifierCode"), "/requestBody/destinationBeneficiary/bankIdentifierCode", "bic-for-non-iban", "not an IBAN", schema.Warning},
		{"swift needs the bank country", "outgoing_wire_transfers", swiftIBAN, del("/requestBody/destinationBeneficiary/bankCountry"), "/requestBody/destinationBeneficiary/bankCountry", "required", "bankCountry", schema.Error},
		{"sepa needs a reference", "outgoing_wire_transfers", sepa, del("/requestBody/description"), "/requestBody/description", "sepa-reference", "SEPA", schema.Warning},
		{"sepa reference at most 35", "outgoing_wire_transfers", sepa, set("/requestBody/description", strings.Repeat("x", 36)), "/requestBody/description", "sepa-reference", "SEPA", schema.Warning},
		{"iban beneficiary needs a name", "outgoing_wire_transfers", rix, del("/requestBody/destinationBeneficiary/name"), "/requestBody/destinationBeneficiary/name", "required", "name", schema.Error},
		{"faster payments reference at most 18", "outgoing_wire_transfers", fp, set("/requestBody/description", strings.Repeat("x", 19)), "/requestBody/description", "faster-payments-reference", "Faster Payments", schema.Warning},
		{"faster payments needs the sort code", "outgoing_wire_transfers", fp, del("/requestBody/destinationBeneficiary/sortCode"), "/requestBody/destinationBeneficiary/sortCode", "required", "sortCode", schema.Error},
		{"faster payments needs the account type", "outgoing_wire_transfers", fp, del("/requestBody/destinationBeneficiary/type"), "/requestBody/destinationBeneficiary/type", "required", "type", schema.Error},
		{"faster payments name with the ASCII apostrophe", "outgoing_wire_transfers", fp, set("/requestBody/destinationBeneficiary/name", "O'Brien"), "/requestBody/destinationBeneficiary/name", "faster-payments-name", "\u2019", schema.Warning},
		{"faster payments name with the typographic apostrophe", "outgoing_wire_transfers", fp, set("/requestBody/destinationBeneficiary/name", "O\u2019Brien"), "/requestBody/destinationBeneficiary/name", "pattern", "use the apostrophe ' instead", schema.Error},
		{"faster payments name at most 140", "outgoing_wire_transfers", fp, set("/requestBody/destinationBeneficiary/name", strings.Repeat("a", 141)), "/requestBody/destinationBeneficiary/name", "max-length", "140", schema.Error},
		{"iban and swift fields mixed", "outgoing_wire_transfers", sepa, set("/requestBody/destinationBeneficiary/account", "12345678"), "/requestBody/destinationBeneficiary", "one-of", "both", schema.Error},
		{"no kind of beneficiary", "outgoing_wire_transfers", sepa, set("/requestBody/destinationBeneficiary", map[string]any{"name": "X"}), "/requestBody/destinationBeneficiary", "one-of", "none", schema.Error},
		{"linked account of another type", "outgoing_wire_transfers", owt[6], set("/requestBody/destinationBeneficiary/type", "managed_accounts"), "/requestBody/destinationBeneficiary/type", "enum", "linked_accounts", schema.Error},
		{"iban with spaces", "outgoing_wire_transfers", rix, set("/requestBody/destinationBeneficiary/iban", "SE45 5000 0000 0583 9825 7466"), "/requestBody/destinationBeneficiary/iban", "pattern", "remove the spaces", schema.Error},
		{"legacy faster payments needs the account type", "outgoing_wire_transfers", legacyFP, del("/requestBody/destinationBeneficiary/type"), "/requestBody/destinationBeneficiary/type", "faster-payments-account-type", "personal or business", schema.Warning},
		{"legacy faster payments name at most 140", "outgoing_wire_transfers", legacyFP, set("/requestBody/destinationBeneficiary/name", strings.Repeat("a", 141)), "/requestBody/destinationBeneficiary/name", "faster-payments-name", "140", schema.Warning},
		{"legacy faster payments needs both numbers", "outgoing_wire_transfers", legacyFP, del("/requestBody/destinationBeneficiary/bankAccountDetails/sortCode"), "/requestBody/destinationBeneficiary/bankAccountDetails/sortCode", "required", "sortCode", schema.Error},
		{"legacy iban needs the iban", "outgoing_wire_transfers", legacyIBAN, set("/requestBody/destinationBeneficiary/bankAccountDetails/iban", "GB12"), "/requestBody/destinationBeneficiary/bankAccountDetails/iban", "min-length", "15", schema.Error},
		{"wire source must be an account", "outgoing_wire_transfers", rix, set("/requestBody/sourceInstrument/type", "managed_cards"), "/requestBody/sourceInstrument/type", "enum", "managed_accounts", schema.Error},
		{"send instrument needs a type", "sends", sends[0], del("/requestBody/destination/type"), "/requestBody/destination/type", "required", "destination.type", schema.Error},
		{"send beneficiary id digits", "sends", sends[1], set("/requestBody/destination/beneficiaryId", "B-1"), "/requestBody/destination/beneficiaryId", "pattern", "digits", schema.Error},
		{"card kinds need the card id", "card_blocks", seeds(t, "card_blocks")[0], del("/pathParams"), "/pathParams", "required", "pathParams", schema.Error},
		{"invites need the user id", "user_invites", seeds(t, "user_invites")[0], set("/pathParams", map[string]any{}), "/pathParams/_user_id_", "required", "pathParams._user_id_", schema.Error},
		{"transfers need a body", "transfers", seeds(t, "transfers")[0], del("/requestBody"), "/requestBody", "required", "requestBody", schema.Error},
		{"pathParams of the wrong type", "card_unblocks", seeds(t, "card_unblocks")[0], set("/pathParams", "110187"), "/pathParams", "type", "an object", schema.Error},
		{"amount beyond int64", "transfers", seeds(t, "transfers")[0], set("/requestBody/destinationAmount/amount", json.Number("99999999999999999999")), "/requestBody/destinationAmount/amount", "format", "64 bits", schema.Error},
		{"amount with a fraction", "sends", sends[0], set("/requestBody/destinationAmount/amount", json.Number("12.34")), "/requestBody/destinationAmount/amount", "type", "whole number", schema.Error},
		{"lower-case currency", "transfers", seeds(t, "transfers")[0], set("/requestBody/destinationAmount/currency", "eur"), "/requestBody/destinationAmount/currency", "pattern", "use capital letters", schema.Error},
		{"spend limit needs an interval", "card_spend_rules", seeds(t, "card_spend_rules")[0], del("/requestBody/spendLimit/1/interval"), "/requestBody/spendLimit/1/interval", "required", "spendLimit[1].interval", schema.Error},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			el := deepCopy(tc.seed)
			tc.edit(el)
			find := func(v *schema.Validator) *schema.Problem {
				ps := v.ValidateElement(fixture.Kind(tc.kind), 3, el)
				for i := range ps {
					if ps[i].Pointer == tc.pointer && ps[i].Code == tc.code {
						return &ps[i]
					}
				}
				t.Fatalf("no %s problem at %s; got %+v", tc.code, tc.pointer, ps)
				return nil
			}
			got := find(v)
			if got.Element != 3 || !strings.Contains(got.Message, tc.says) || got.Severity != tc.severity {
				t.Errorf("%s %q (element %d) should be a %s that says %q", got.Severity, got.Message, got.Element, tc.severity, tc.says)
			}
			if got := find(strict); got.Severity != schema.Error {
				t.Errorf("strict: %s is a %s", got.Code, got.Severity)
			}
		})
	}
}

// TestWhatTheContractAcceptsIsNotRefused holds elements the upstream schema
// accepts although an earlier reading of its prose refused them: they pass
// with at most warnings unless the validation is strict.
func TestWhatTheContractAcceptsIsNotRefused(t *testing.T) {
	v := fixture.Validator()
	owt := seeds(t, "outgoing_wire_transfers")
	sepa, swift, legacyIBAN, legacyFP := owt[0], owt[2], owt[7], owt[8]
	sends := seeds(t, "sends")
	for _, tc := range []struct {
		name string
		kind string
		seed any
		edit func(any)
	}{
		{"a SEPA wire without a reference", "outgoing_wire_transfers", sepa, del("/requestBody/description")},
		{"a SWIFT wire without purpose or reference", "outgoing_wire_transfers", swift, func(e any) { del("/requestBody/purpose")(e); del("/requestBody/description")(e) }},
		{"a Faster Payments name with an ASCII apostrophe", "outgoing_wire_transfers", owt[4], set("/requestBody/destinationBeneficiary/name", "O'Brien & Sons")},
		{"the older beneficiary form without a type", "outgoing_wire_transfers", legacyFP, del("/requestBody/destinationBeneficiary/type")},
		{"the older form's IBAN details with a sort code too", "outgoing_wire_transfers", legacyIBAN, set("/requestBody/destinationBeneficiary/bankAccountDetails/sortCode", "123456")},
		{"the older form's name beyond 150 characters", "outgoing_wire_transfers", legacyIBAN, set("/requestBody/destinationBeneficiary/name", strings.Repeat("a", 151))},
		{"a send to a beneficiary with an instrument id too", "sends", sends[1], set("/requestBody/destination/id", "5")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			el := deepCopy(tc.seed)
			tc.edit(el)
			if errs := errorsOf(v.ValidateElement(fixture.Kind(tc.kind), 0, el)); len(errs) > 0 {
				t.Errorf("refused: %+v", errs)
			}
		})
	}
}

func del(p string) func(any) { return func(e any) { setAt(e, p, nil, true) } }

func set(p string, v any) func(any) { return func(e any) { setAt(e, p, v, false) } }

func TestRequestSizeLimits(t *testing.T) {
	v := fixture.Validator()
	k := fixture.Kind("card_blocks")
	element := seeds(t, "card_blocks")[0]
	for _, n := range []int{0, 1, 10000, 10001} {
		elements := make([]any, n)
		for i := range elements {
			elements[i] = element
		}
		r := v.ValidateRequest(k, elements)
		wantErr := n == 0 || n > schema.MaxElements
		if r.Elements != n || r.RequestErrors() != wantErr || r.Valid() == wantErr {
			t.Errorf("%d elements: elements=%d requestErrors=%v valid=%v", n, r.Elements, r.RequestErrors(), r.Valid())
		}
		if wantErr {
			p := r.Problems[0]
			if p.Element != schema.RequestLevel {
				t.Errorf("%d elements: problem on element %d, want request level", n, p.Element)
			}
			want := map[int]string{0: "no elements", 10001: "10,001 elements; a bulk takes at most 10,000"}[n]
			if !strings.Contains(p.Message, want) {
				t.Errorf("%d elements: message %q lacks %q", n, p.Message, want)
			}
		}
	}
}

func TestBadInput(t *testing.T) {
	v := fixture.Validator()
	k := fixture.Kind("transfers")
	tests := []struct {
		name, body string
		syntax     string // a syntax error saying this, or
		pointer    string // a problem at this pointer
		element    int
		code, says string
	}{
		{name: "not JSON", body: "profileId,amount\n1,2", syntax: "line 1, column 1: unexpected 'p'"},
		{name: "truncated", body: `[{"requestBody": {"profileId": "1"`, syntax: "line 1, column 35: unexpected end of input"},
		{name: "position on a later line", body: "[\n  {\"a\": 1},\n  {\"b\" 2}\n]", syntax: "line 3, column 8"},
		{name: "empty file", body: "  \n", syntax: "the input is empty"},
		{name: "trailing data", body: `[] []`, syntax: "after the end of the JSON value"},
		{name: "invalid UTF-8", body: "[{\"requestBody\": {\"tag\": \"caf\xe9\"}}]", syntax: "invalid UTF-8"},
		{name: "lone surrogate", body: `[{"requestBody": {"tag": "\ud800"}}]`, syntax: "surrogate"},
		{name: "deep nesting", body: strings.Repeat("[", 100) + strings.Repeat("]", 100), syntax: "nested more than 64"},
		{name: "huge exponent", body: `[{"requestBody": {"destinationAmount": {"amount": 1e999999999}}}]`, syntax: "out of range"},
		{name: "leading zero", body: `[{"requestBody": {"destinationAmount": {"amount": 0012}}}]`, syntax: "leading zero"},
		{name: "object instead of array", body: `{"pathParams": {}, "requestBody": {}}`, pointer: "", element: -1, code: "not-an-array", says: "JSON array"},
		{name: "element not an object", body: `["transfer"]`, pointer: "", element: 0, code: "type", says: "the element must be an object"},
		{name: "requestBody of the wrong type", body: `[{"requestBody": [1, 2]}]`, pointer: "/requestBody", element: 0, code: "type", says: "requestBody must be an object; found a list of 2 items"},
		{name: "duplicate key", body: `[{"requestBody": {"profileId": "1", "profileId": "2"}}]`, pointer: "/requestBody/profileId", element: 0, code: "duplicate-key", says: "profileId appears twice"},
		{name: "huge string", body: `[{"requestBody": {"tag": "` + strings.Repeat("a", 1<<20) + `"}}]`, pointer: "/requestBody/tag", element: 0, code: "max-length", says: "at most 50 characters"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := v.CheckRequest(k, []byte(tc.body))
			if tc.syntax != "" {
				var se *schema.SyntaxError
				if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.syntax) {
					t.Fatalf("got error %v, want a syntax error saying %q", err, tc.syntax)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range r.Problems {
				if p.Pointer == tc.pointer && p.Element == tc.element && p.Code == tc.code {
					if !strings.Contains(p.Message, tc.says) {
						t.Errorf("message %q should say %q", p.Message, tc.says)
					}
					if len([]rune(p.Value)) > 60 {
						t.Errorf("value not cut short: %d characters", len([]rune(p.Value)))
					}
					return
				}
			}
			t.Errorf("no %s problem at element %d %q; got %+v", tc.code, tc.element, tc.pointer, r.Problems)
		})
	}
}

func TestWarnings(t *testing.T) {
	v := fixture.Validator()
	tests := []struct {
		name, kind string
		seed       int
		edit       func(any)
		pointer    string
		code, says string
	}{
		{"zero amount", "transfers", 0, set("/requestBody/destinationAmount/amount", json.Number("0")), "/requestBody/destinationAmount/amount", "non-positive-amount", "is zero"},
		{"negative amount", "outgoing_wire_transfers", 1, set("/requestBody/transferAmount/amount", json.Number("-500")), "/requestBody/transferAmount/amount", "non-positive-amount", "negative"},
		{"min above max", "card_spend_rules", 0, set("/requestBody/minTransactionAmount", json.Number("50000")), "/requestBody/minTransactionAmount", "min-above-max", "above maxTransactionAmount 20000"},
		{"negative spend limit", "card_spend_rules", 0, set("/requestBody/spendLimit/1/value/amount", json.Number("-1")), "/requestBody/spendLimit/1/value/amount", "negative-limit", "spendLimit[1].value.amount"},
		{"empty spend rules", "card_spend_rules", 1, set("/requestBody", map[string]any{}), "/requestBody", "no-change", "change none"},
		{"scheduled in the past", "sends", 0, set("/requestBody/scheduledTimestamp", "1700000000000"), "/requestBody/scheduledTimestamp", "scheduled-in-past", "14 Nov 2023, 22:13:20 UTC, which is in the past"},
		{"scheduled years ahead", "transfers", 0, set("/requestBody/scheduledTimestamp", "2933107200000"), "/requestBody/scheduledTimestamp", "scheduled-far-ahead", "12 Dec 2062, 00:00 UTC, more than 5 years ahead: check its year"},
		{"scheduled in seconds", "transfers", 0, set("/requestBody/scheduledTimestamp", "1893456000"), "/requestBody/scheduledTimestamp", "timestamp-in-seconds", "looks like seconds"},
		{"typo of a known field", "transfers", 0, set("/requestBody/destinationAmount/amout", json.Number("1")), "/requestBody/destinationAmount/amout", "unknown-field", "did you mean destinationAmount.amount?"},
		{"field of another kind", "users", 0, set("/requestBody/profileId", "1"), "/requestBody/profileId", "unknown-field", "not a field of this kind"},
		{"path parameter on a kind without one", "transfers", 1, set("/pathParams", map[string]any{"_id_": "1"}), "/pathParams/_id_", "unknown-field", "takes no path parameters"},
		{"body on a kind without one", "card_removals", 0, set("/requestBody", map[string]any{"reason": "lost"}), "/requestBody/reason", "unknown-field", "sends no request body"},
		{"unknown top-level key", "card_blocks", 0, set("/pathparams", map[string]any{}), "/pathparams", "unknown-field", "did you mean pathParams?"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			el := deepCopy(seeds(t, tc.kind)[tc.seed])
			tc.edit(el)
			ps := v.ValidateElement(fixture.Kind(tc.kind), 0, el)
			if errs := errorsOf(ps); len(errs) > 0 {
				t.Fatalf("a warning case produced errors: %+v", errs)
			}
			for _, p := range ps {
				if p.Pointer == tc.pointer && p.Code == tc.code {
					if p.Severity != schema.Warning || !strings.Contains(p.Message, tc.says) {
						t.Errorf("got %s %q, want a warning saying %q", p.Severity, p.Message, tc.says)
					}
					return
				}
			}
			t.Errorf("no %s warning at %s; got %+v", tc.code, tc.pointer, ps)
		})
	}
}

func TestFieldNames(t *testing.T) {
	tests := map[string]string{
		"/requestBody/destinationAmount/amount":   "destinationAmount.amount",
		"/requestBody/spendLimit/0/value/amount":  "spendLimit[0].value.amount",
		"/pathParams/_id_":                        "pathParams._id_",
		"/requestBody":                            "requestBody",
		"/requestBody/allowedMerchantCountries/3": "allowedMerchantCountries[3]",
	}
	for ptr, want := range tests {
		if got := schema.FieldName(pointerTokens(ptr)); got != want {
			t.Errorf("FieldName(%s) = %q, want %q", ptr, got, want)
		}
	}
}

func TestFieldsFollowTheSchemaOrder(t *testing.T) {
	v := fixture.Validator()
	var paths []string
	for _, f := range v.Fields(fixture.Kind("transfers")) {
		paths = append(paths, f.Path)
	}
	want := "profileId tag source.id source.type description destination.id destination.type destinationAmount.currency destinationAmount.amount scheduledTimestamp"
	if got := strings.Join(paths, " "); got != want {
		t.Errorf("transfers fields:\n got %s\nwant %s", got, want)
	}
	for _, f := range v.Fields(fixture.Kind("card_blocks")) {
		if f.Path != "pathParams._id_" || !f.Required || f.Title != "Card id" {
			t.Errorf("card_blocks field %+v", f)
		}
	}
}
