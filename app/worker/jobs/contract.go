package jobs

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/handoff"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
	"github.com/bulkdesk/bulkdesk/schema"
)

// contractState is the contract the worker validates against, beside
// s.validator which is built from it: the source loaded (nil for the
// built-in one), the strict setting, and where they are kept.
type contractState struct {
	mu sync.Mutex
	// restored says the kept record was read: it is, once, on the first
	// job or at the start of Run, whichever comes first.
	restored bool
	store    ContractStore
	source   *wire.ContractSource
	strict   bool
	// lang is the page's language, which it sends with every request:
	// it is not kept.
	lang string
	// stored says the store holds what is in use; storeErr says why not,
	// in the language the page speaks when it asks.
	stored   bool
	storeErr error
}

// contractRecord is what the store keeps.
type contractRecord struct {
	Strict bool                 `json:"strict"`
	Source *wire.ContractSource `json:"source,omitempty"`
}

// restoreContract puts the kept contract and strict setting back in use,
// once. A kept contract that no longer builds is left out, with why.
func (s *Server) restoreContract(ctx context.Context) {
	st := &s.contract
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.restored {
		return
	}
	st.restored = true
	st.store = &MemoryContracts{}
	if s.OpenContracts != nil {
		store, err := s.OpenContracts(ctx)
		if err != nil {
			st.storeErr = lang.Errorf("the contract cannot be kept in this browser: %s", s.reason(err))
			return
		}
		st.store = store
	}
	data, err := st.store.Load(ctx)
	if err != nil || data == nil {
		return
	}
	var rec contractRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		st.storeErr = lang.Errorf("the contract kept in this browser could not be read: %s", s.reason(err))
		return
	}
	v, err := contractValidator(rec.Source, rec.Strict, st.lang)
	if err != nil {
		st.storeErr = lang.Errorf("the contract kept in this browser could not be used: %s", s.reason(err))
		return
	}
	s.validator, st.source, st.strict, st.stored = s.clocked(v), rec.Source, rec.Strict, true
}

// setContract is JobContract.
func (s *Server) setContract(c *runner.Call) (any, error) {
	var req wire.SetContract
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	s.restoreContract(c.Context())
	st := &s.contract
	st.mu.Lock()
	defer st.mu.Unlock()
	source := st.source
	switch {
	case req.Builtin:
		source = nil
	case req.Source != nil:
		source = req.Source
	}
	if source != st.source || req.Strict != st.strict || req.Lang != st.lang {
		v, err := contractValidator(source, req.Strict, req.Lang)
		if err != nil {
			// Said here: the runner's Say would wait for st.mu.
			l, _ := lang.Parse(req.Lang)
			return nil, wire.Errorf(wire.CodeBadRequest, "%s", l.Say(err))
		}
		kept := source != st.source || req.Strict != st.strict
		s.validator, st.source, st.strict, st.lang = s.clocked(v), source, req.Strict, req.Lang
		l, _ := lang.Parse(req.Lang)
		s.speaks.Store(l)
		if kept {
			s.saveContract(c.Context())
		}
	}
	return s.contractStateLocked(), nil
}

// language is the one the page speaks, in which the worker writes what
// it says of a file. It takes no lock: the runner asks for it in the
// browser's callbacks, which must not wait on a job holding the
// contract's lock across an IndexedDB call (wasm would deadlock).
func (s *Server) language() lang.Tag {
	if l, ok := s.speaks.Load().(lang.Tag); ok {
		return l
	}
	return lang.English
}

// saveContract keeps what is in use; s.contract.mu is held.
func (s *Server) saveContract(ctx context.Context) {
	st := &s.contract
	data, err := json.Marshal(contractRecord{Strict: st.strict, Source: st.source})
	if err == nil {
		err = st.store.Save(ctx, data)
	}
	st.stored, st.storeErr = err == nil, nil
	if err != nil {
		st.storeErr = lang.Errorf("the contract could not be kept in this browser, and is lost on a reload: %s", s.reason(err))
	}
}

// contractValidator builds the validator of a source (nil: the built-in
// contract).
func contractValidator(src *wire.ContractSource, strict bool, lang string) (*schema.Validator, error) {
	return handoff.Contract{Source: src, Strict: strict, Lang: lang}.Validator()
}

// contractStateLocked says what is in use; s.contract.mu is held.
func (s *Server) contractStateLocked() wire.ContractState {
	st := &s.contract
	l, _ := lang.Parse(st.lang)
	out := wire.ContractState{Name: "built-in", Builtin: st.source == nil, Strict: st.strict,
		Stored: st.stored, StoreError: l.Say(st.storeErr)}
	if src := st.source; src != nil {
		out.Name, out.Title, out.Version, out.Notes = src.Name, src.Title, src.Version, src.Notes
	}
	for _, t := range schema.Targets() {
		out.Targets = append(out.Targets, wire.ContractTarget(t))
	}
	builtin := schema.Default()
	for _, k := range schema.Kinds() {
		ck := wire.ContractKind{Kind: k.ID, Title: k.Title, Missing: s.validator.Has(k) != nil, Skipped: s.validator.Skipped(k)}
		if st.source != nil {
			for _, ch := range schema.Compare(k, builtin, s.validator) {
				ck.Changes = append(ck.Changes, wire.FieldChange(ch))
			}
		}
		out.Kinds = append(out.Kinds, ck)
	}
	return out
}
