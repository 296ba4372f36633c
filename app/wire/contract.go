package wire

import "encoding/json"

// The API contract: the element schemas the worker validates against. The
// console is built with one (the built-in contract); an operator can load
// a newer OpenAPI file at run time instead. The page reads the file in a
// short-lived worker of its own (web/contract.js, wasm/contract), which
// alone links the OpenAPI reader, and hands what it derived to this
// worker with JobContract. The worker keeps the contract in its IndexedDB
// and uses it for every later file, after a reload too.

// JobContract sets the contract in use and the strict setting, and
// answers what is in use. Request: SetContract. Result: ContractState.
// A request with neither Source nor Builtin only sets Strict and Lang: the
// page sends one at start-up to learn the Targets and the contract in use.
const JobContract = "contract"

// SetContract is the request of JobContract.
type SetContract struct {
	// Strict makes the API documentation's rules (the overlay's advise
	// entries) errors instead of warnings.
	Strict bool `json:"strict"`
	// Source, when set, replaces the contract in use.
	Source *ContractSource `json:"source,omitempty"`
	// Builtin goes back to the built-in contract.
	Builtin bool `json:"builtin,omitempty"`
	// Lang is the console's language (app/lang), in which the validator
	// writes its messages; "" is English.
	Lang string `json:"lang,omitempty"`
}

// ContractSource is a contract read from an OpenAPI file: each kind's
// element schema, by kind id, and what the reader says about the file.
type ContractSource struct {
	// Name is the file's name; Title and Version are the document's own.
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version,omitempty"`
	// Schemas holds each kind's element schema.
	Schemas map[string]json.RawMessage `json:"schemas"`
	// Notes are the keywords the reader translated, dropped or did not
	// understand.
	Notes []ContractNote `json:"notes,omitempty"`
	// Missing lists the kinds the file has no operation for.
	Missing []string `json:"missing,omitempty"`
}

// ContractNote is one keyword the reader translated, dropped or did not
// understand, and where in the file.
type ContractNote struct {
	Kind   string `json:"kind"`
	Place  string `json:"place"`
	Action string `json:"action"`
	Text   string `json:"text"`
}

// ContractTarget is where a contract defines a kind's elements: the
// reader of a contract file looks these operations up.
type ContractTarget struct {
	Kind   string `json:"Kind"`
	Method string `json:"Method"`
	Path   string `json:"Path"`
}

// ContractState is the result of JobContract: the contract in use.
type ContractState struct {
	// Name and Version name the contract: "built-in", or the file's name
	// and the document's version.
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version,omitempty"`
	Builtin bool   `json:"builtin"`
	Strict  bool   `json:"strict"`
	// Targets are the operations a contract file is searched for.
	Targets []ContractTarget `json:"targets"`
	// Kinds says, for each kind, how the contract in use differs from the
	// built-in one.
	Kinds []ContractKind `json:"kinds"`
	// Notes are the reader's notes on the file in use.
	Notes []ContractNote `json:"notes,omitempty"`
	// Stored says the contract is kept in the browser; StoreError, when
	// set, says why it is not (it is then lost on a reload).
	Stored     bool   `json:"stored,omitempty"`
	StoreError string `json:"storeError,omitempty"`
}

// ContractKind is what the contract in use says of one kind.
type ContractKind struct {
	Kind  string `json:"kind"`
	Title string `json:"title"`
	// Missing says the contract does not define the kind: its files
	// cannot be checked.
	Missing bool `json:"missing,omitempty"`
	// Changes are how its fields differ from the built-in contract's.
	Changes []FieldChange `json:"changes,omitempty"`
	// Skipped are the project's corrections that did not apply to this
	// contract's schema.
	Skipped []string `json:"skipped,omitempty"`
}

// FieldChange is one way a field differs from the built-in contract.
type FieldChange struct {
	Field string `json:"field"`
	What  string `json:"what"`
}
