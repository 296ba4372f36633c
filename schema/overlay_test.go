package schema_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/schema"
)

// TestEveryOverlayEntryDoesWhatItSays checks each entry of the overlay on
// an element it concerns: without the entry the element is judged as the
// upstream schema judges it, with the entry it gets the entry's effect.
func TestEveryOverlayEntryDoesWhatItSays(t *testing.T) {
	owt := seeds(t, "outgoing_wire_transfers")
	sepa, swift, fp, legacyFP := owt[0], owt[2], owt[4], owt[8]
	transfer := seeds(t, "transfers")[0]
	spend := seeds(t, "card_spend_rules")[0]
	cases := map[string]struct {
		kind string
		seed any
		edit func(any)
		// code is what the entry adds at pointer: an error code for relax
		// (the error it removes) and require, the entry's id for advise.
		pointer, code string
	}{
		"same-iban-shapes":             {"outgoing_wire_transfers", sepa, func(any) {}, "/requestBody/destinationBeneficiary", "one-of"},
		"request-body":                 {"transfers", transfer, del("/requestBody"), "/requestBody", "required"},
		"path-parameter":               {"card_blocks", seeds(t, "card_blocks")[0], del("/pathParams"), "/pathParams", "required"},
		"sepa-reference":               {"outgoing_wire_transfers", sepa, del("/requestBody/description"), "/requestBody/description", "sepa-reference"},
		"swift-purpose-reference":      {"outgoing_wire_transfers", swift, del("/requestBody/purpose"), "/requestBody/purpose", "swift-purpose-reference"},
		"faster-payments-reference":    {"outgoing_wire_transfers", fp, set("/requestBody/description", strings.Repeat("x", 19)), "/requestBody/description", "faster-payments-reference"},
		"faster-payments-name":         {"outgoing_wire_transfers", fp, set("/requestBody/destinationBeneficiary/name", "O'Brien"), "/requestBody/destinationBeneficiary/name", "faster-payments-name"},
		"faster-payments-account-type": {"outgoing_wire_transfers", legacyFP, del("/requestBody/destinationBeneficiary/type"), "/requestBody/destinationBeneficiary/type", "faster-payments-account-type"},
		"bic-for-non-iban":             {"outgoing_wire_transfers", swift, del("/requestBody/destinationBeneficiary/bankIdentifierCode"), "/requestBody/destinationBeneficiary/bankIdentifierCode", "bic-for-non-iban"},
		"non-positive-amount":          {"transfers", transfer, set("/requestBody/destinationAmount/amount", json.Number("0")), "/requestBody/destinationAmount/amount", "non-positive-amount"},
		"timestamp-in-seconds":         {"transfers", transfer, set("/requestBody/scheduledTimestamp", "1893456000"), "/requestBody/scheduledTimestamp", "timestamp-in-seconds"},
		"scheduled-in-past":            {"transfers", transfer, set("/requestBody/scheduledTimestamp", "1700000000000"), "/requestBody/scheduledTimestamp", "scheduled-in-past"},
		"scheduled-far-ahead":          {"transfers", transfer, set("/requestBody/scheduledTimestamp", "2933107200000"), "/requestBody/scheduledTimestamp", "scheduled-far-ahead"},
		"no-change":                    {"card_spend_rules", spend, set("/requestBody", map[string]any{}), "/requestBody", "no-change"},
		"min-above-max":                {"card_spend_rules", spend, set("/requestBody/minTransactionAmount", json.Number("50000")), "/requestBody/minTransactionAmount", "min-above-max"},
		"negative-limit":               {"card_spend_rules", spend, set("/requestBody/spendLimit/0/value/amount", json.Number("-1")), "/requestBody/spendLimit/0/value/amount", "negative-limit"},
		"iso-4217-currency":            {"transfers", transfer, set("/requestBody/destinationAmount/currency", "EUD"), "/requestBody/destinationAmount/currency", "iso-4217-currency"},
	}
	with := fixture.Validator()
	for _, e := range schema.TheOverlay().Entries {
		t.Run(e.ID, func(t *testing.T) {
			tc, ok := cases[e.ID]
			if !ok {
				t.Fatalf("no case shows what %s does", e.ID)
			}
			if e.Why == "" || len(e.Pointers) == 0 || len(e.Kinds) == 0 {
				t.Errorf("%s lacks its why, pointers or kinds", e.ID)
			}
			el := deepCopy(tc.seed)
			tc.edit(el)
			k := fixture.Kind(tc.kind)
			without := schema.ValidatorWithout(e.ID, with.Now)
			has := func(v *schema.Validator) *schema.Problem {
				for _, p := range v.ValidateElement(k, 0, el) {
					if p.Pointer == tc.pointer && p.Code == tc.code {
						return &p
					}
				}
				return nil
			}
			before, after := has(without), has(with)
			switch e.Severity {
			case schema.Relax:
				if before == nil || before.Severity != schema.Error || after != nil {
					t.Errorf("without the entry %+v, with it %+v: want an error removed", before, after)
				}
			case schema.Require:
				if before != nil || after == nil || after.Severity != schema.Error {
					t.Errorf("without the entry %+v, with it %+v: want an error added", before, after)
				}
			case schema.Advise:
				if before != nil || after == nil || after.Severity != schema.Warning {
					t.Errorf("without the entry %+v, with it %+v: want a warning added", before, after)
				}
			default:
				t.Errorf("severity %q", e.Severity)
			}
		})
	}
}

// TestTheREADMEListsTheOverlay holds the table of the overlay in this
// folder's guide, README.md, to the file itself: a row per entry, with
// its severity.
func TestTheREADMEListsTheOverlay(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range schema.TheOverlay().Entries {
		row := "| `" + e.ID + "` | " + string(e.Severity) + " |"
		if !strings.Contains(string(readme), row) {
			t.Errorf("schema/README.md has no row starting %q", row)
		}
	}
}

// TestEveryFieldHasOurWords checks that the built-in contract's fields all
// have this project's title and description, and that the overlay names
// no field the contract lacks.
func TestEveryFieldHasOurWords(t *testing.T) {
	v := fixture.Validator()
	o := schema.TheOverlay()
	used := make(map[string]bool)
	for _, k := range schema.Kinds() {
		for _, f := range v.Fields(k) {
			w, ok := o.WordsFor(k, f.Path)
			if !ok || w.Title == "" || w.Description == "" {
				t.Errorf("%s %s has no words of ours", k.ID, f.Path)
			}
			if _, own := o.Fields[k.ID][f.Path]; own {
				used[k.ID+" "+f.Path] = true
			} else {
				used["* "+f.Path] = true
			}
		}
	}
	for kind, fields := range o.Fields {
		for path := range fields {
			if !used[kind+" "+path] {
				t.Errorf("the overlay has words for %s %s, which no kind's contract has", kind, path)
			}
		}
	}
}
