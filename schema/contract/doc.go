// Package contract derives, from an OpenAPI 3.x contract, the JSON Schema
// (draft 2020-12) of one element of each bulk request.
//
// A bulk submission takes an array of elements; what a spreadsheet row must
// satisfy is the schema of one element, the "items" of the operation's
// application/json request body. Derive reads the document (YAML or JSON),
// finds each Target's operation, and writes that items schema as a
// self-contained JSON Schema: components it reaches are copied under "$defs"
// and their references rewritten, so the result needs nothing else.
//
// Components appear under "$defs" in the order the schema first refers to
// them, which depends only on what is derived: two contracts that share a
// schema but list their components differently give the same bytes.
//
// The document is walked as yaml.Node trees rather than decoded into maps,
// so that key order and the literal text of numbers survive: the output is
// byte-stable and reads like the source.
//
// OpenAPI keywords that JSON Schema lacks are translated where the meaning
// carries over (nullable, boolean exclusiveMinimum/Maximum) and dropped
// otherwise; every such change, and every keyword not understood, is
// recorded as a Note so that nothing disappears unseen.
//
// The package depends only on the standard library and gopkg.in/yaml.v3
// because it is also compiled into a small WebAssembly module that loads a
// contract at run time.
package contract
