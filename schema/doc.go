// Package schema holds what the API accepts in a bulk request: the bulk
// kinds, the JSON Schema of each kind's elements, and the validator that
// explains every problem in an operator's words.
//
// # Kinds
//
// A [Kind] is one sort of bulk ("transfers", "card_blocks", …). Each knows
// where it is submitted on the standard and, for some, the back-office API,
// which path parameter its elements carry, and the single operation every
// element is processed as. [Kinds] lists them and [Lookup] finds one by id.
//
// # Schemas
//
// The schemas are JSON Schema (draft 2020-12) files in json/, one per kind
// plus defs.json, embedded in the binary. They restate the API reference in
// our words and say in "$comment" where they depart from it and why.
//
// # Validation
//
// [DecodeJSON] reads a request body exactly: numbers keep their digits, and
// duplicate keys, bad UTF-8 and absurd nesting are reported, not smoothed
// over. [Validator.ValidateRequest] checks every element and returns a
// [Report] of [Problem] values: errors the API would refuse, and warnings
// for fields it does not know or values that are almost surely mistakes.
// The same code runs natively and in the browser under WebAssembly.
//
// # Elements checked from their bytes
//
// A large body is not decoded into Go values to be checked. [ReadBody]
// keeps the file's bytes and where each element is; [Validator.CheckBody]
// reads each element into one reused list of offsets (flat.go) and asks
// the pre-check, the unknown-field check and the overlay's advice of it
// there (flatcheck.go, flatadvice.go). They answer only when certain:
// an element they refuse, or cannot judge (escapes, a repeated key, a
// number they cannot compare exactly), is decoded and goes through
// jsonschema, which writes the messages, exactly as a decoded body does.
// TestTheFlatPathAgreesWithTheFullPath and FuzzFlatPath hold the two
// paths to the same verdict and the same problems, for the built-in
// contract and contracts loaded at run time.
package schema
