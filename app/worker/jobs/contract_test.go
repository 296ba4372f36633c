package jobs_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/jobs"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/bulkdesk/bulkdesk/schema/contract"
	"github.com/bulkdesk/bulkdesk/schema/contract/load"
)

// newerContract reads the test contract with one change a newer API might
// make: transfers gain a required field, endToEndId, which may be null
// (an OpenAPI keyword the reader translates, and says so).
func newerContract(t *testing.T) *wire.ContractSource {
	t.Helper()
	data, err := os.ReadFile("../../../schema/contract/testdata/multi-bulks.yml")
	if err != nil {
		t.Fatal(err)
	}
	return deriveSource(t, "bulks-v4.yml", fixture.WithEndToEndID(string(data)))
}

// deriveSource reads an OpenAPI file as the page's contract reader does.
func deriveSource(t *testing.T, name, text string) *wire.ContractSource {
	t.Helper()
	c, err := load.Derive(name, []byte(text), contract.Options{KeepDescriptions: true})
	if err != nil {
		t.Fatal(err)
	}
	src := &wire.ContractSource{Name: c.Source, Title: c.Title, Version: c.Version, Schemas: map[string]json.RawMessage{}}
	for _, s := range c.Schemas {
		src.Schemas[s.Kind] = s.JSON
	}
	for _, n := range c.Notes {
		src.Notes = append(src.Notes, wire.ContractNote(n))
	}
	for _, m := range c.Missing {
		src.Missing = append(src.Missing, m.Kind)
	}
	return src
}

func (h *harness) contract(req wire.SetContract) wire.ContractState {
	h.t.Helper()
	var st wire.ContractState
	h.result(h.send(wire.JobContract, req, nil), &st)
	return st
}

func kindOf(st wire.ContractState, id string) wire.ContractKind {
	for _, k := range st.Kinds {
		if k.Kind == id {
			return k
		}
	}
	return wire.ContractKind{}
}

func TestTheBuiltinContractIsInUseAtFirst(t *testing.T) {
	h := newHarness(t)
	st := h.contract(wire.SetContract{})
	if !st.Builtin || st.Name != "built-in" || st.Strict {
		t.Errorf("state = %+v, want the built-in contract, not strict", st)
	}
	if len(st.Targets) != len(schema.Targets()) || st.Targets[0].Path == "" {
		t.Errorf("targets = %+v, want every kind's operation", st.Targets)
	}
	for _, k := range st.Kinds {
		if k.Missing || len(k.Changes) > 0 {
			t.Errorf("kind %+v: the built-in contract differs from itself", k)
		}
	}
}

func TestALoadedContractChecksLaterFilesUntilTheBuiltinIsBack(t *testing.T) {
	h := newHarness(t)
	st := h.contract(wire.SetContract{Source: newerContract(t)})
	if st.Builtin || st.Name != "bulks-v4.yml" || st.Version != "v3" {
		t.Errorf("state = %+v, want bulks-v4.yml v3 in use", st)
	}
	changes := kindOf(st, "transfers").Changes
	if len(changes) != 1 || changes[0].Field != "endToEndId" || !strings.Contains(changes[0].What, "required") {
		t.Errorf("transfers' changes = %+v, want endToEndId added, required", changes)
	}
	if len(st.Notes) != 1 || st.Notes[0].Kind != "transfers" || st.Notes[0].Action != "translated" {
		t.Errorf("notes = %+v, want nullable translated", st.Notes)
	}

	got, _ := h.summary(h.send(wire.JobOpen, wire.Open{Kind: "transfers", FileName: "pay.json", Auto: true}, fixture.Transfers(3)))
	if got.Invalid != 3 || len(got.Problems) == 0 || !strings.Contains(got.Problems[0].Field+got.Problems[0].Message, "endToEndId") {
		t.Errorf("summary = %+v, want every element without endToEndId invalid", got)
	}

	st = h.contract(wire.SetContract{Builtin: true})
	if !st.Builtin || len(kindOf(st, "transfers").Changes) != 0 {
		t.Errorf("state = %+v, want the built-in contract back", st)
	}
	got, _ = h.summary(h.send(wire.JobOpen, wire.Open{Kind: "transfers", FileName: "pay.json", Auto: true}, fixture.Transfers(3)))
	if got.Invalid != 0 {
		t.Errorf("summary = %+v, want the file valid again", got)
	}
}

func TestTheContractOutlivesTheWorker(t *testing.T) {
	kept := &jobs.MemoryContracts{}
	keep := func(w *workers) {
		w.reader.OpenContracts = func(ctx context.Context) (jobs.ContractStore, error) { return kept, nil }
	}
	h := newHarness(t, keep)
	if st := h.contract(wire.SetContract{Strict: true, Source: newerContract(t)}); !st.Stored {
		t.Fatalf("state = %+v, want it stored", st)
	}

	again := newHarness(t, keep)
	got, _ := again.summary(again.send(wire.JobOpen, wire.Open{Kind: "transfers", FileName: "pay.json", Auto: true}, fixture.Transfers(2)))
	if got.Invalid != 2 {
		t.Errorf("summary = %+v, want the kept contract in use before any contract job", got)
	}
	st := again.contract(wire.SetContract{Strict: true})
	if st.Name != "bulks-v4.yml" || !st.Strict || len(kindOf(st, "transfers").Changes) != 1 {
		t.Errorf("state after a restart = %+v, want bulks-v4.yml, strict", st)
	}
}

// A SEPA wire without a description: the documentation's rule
// "sepa-reference" advises one.
const sepaWithoutDescription = `[{"requestBody": {"profileId": "110323", "sourceInstrument": {"type": "managed_accounts", "id": "1"},
 "transferAmount": {"currency": "EUR", "amount": 150000}, "purpose": "Supplier invoice",
 "destinationBeneficiary": {"name": "Elodie Muller", "iban": "FR7630006000011234567890189", "bankIdentifierCode": "AGRIFRPP882"}}}]`

func TestStrictMakesTheDocumentationsRulesErrors(t *testing.T) {
	h := newHarness(t)
	open := func() wire.Summary {
		got, _ := h.summary(h.send(wire.JobOpen, wire.Open{Kind: "outgoing_wire_transfers", FileName: "sepa.json", Auto: true}, []byte(sepaWithoutDescription)))
		return got
	}
	if got := open(); got.Errors != 0 || got.Warnings == 0 {
		t.Fatalf("not strict: summary = %+v, want a warning and no error", got)
	}
	if st := h.contract(wire.SetContract{Strict: true}); !st.Strict || !st.Builtin {
		t.Errorf("state = %+v, want the built-in contract, strict", st)
	}
	if got := open(); got.Errors == 0 || got.Invalid != 1 {
		t.Errorf("strict: summary = %+v, want the missing description an error", got)
	}
}

func TestAContractThatDoesNotCompileIsRefused(t *testing.T) {
	h := newHarness(t)
	src := newerContract(t)
	src.Schemas["transfers"] = json.RawMessage(`{"type": "object", "properties": {"requestBody": {"$ref": "#/$defs/Nowhere"}}}`)
	e := h.failure(h.send(wire.JobContract, wire.SetContract{Source: src}, nil))
	if e.Code != wire.CodeBadRequest || !strings.Contains(e.Message, "bulks-v4.yml") {
		t.Errorf("error = %+v, want a bad request naming the file", e)
	}
	if st := h.contract(wire.SetContract{}); !st.Builtin {
		t.Errorf("state = %+v, want the built-in contract still in use", st)
	}
}

func TestAContractWithoutSomeKindsSaysSoAndTheWorkerStillWarmsUp(t *testing.T) {
	data, err := os.ReadFile("../../../schema/contract/testdata/backoffice-bulks.yml")
	if err != nil {
		t.Fatal(err)
	}
	kept := &jobs.MemoryContracts{}
	first := newHarness(t, func(w *workers) {
		w.reader.OpenContracts = func(context.Context) (jobs.ContractStore, error) { return kept, nil }
	})
	st := first.contract(wire.SetContract{Source: deriveSource(t, "backoffice.yml", string(data))})
	if k := kindOf(st, "users"); !k.Missing {
		t.Errorf("users = %+v, want it missing from backoffice.yml", k)
	}
	if k := kindOf(st, "transfers"); k.Missing {
		t.Errorf("transfers = %+v, want it defined", k)
	}

	// A worker that starts with it warms up the kinds it has.
	again := newHarness(t, func(w *workers) {
		w.reader.OpenContracts = func(context.Context) (jobs.ContractStore, error) { return kept, nil }
	})
	again.waitWarm()
}
