package schema

// The built-in schemas (json/) are derived from the bulk submissions of
// the reference contract, kept as facts only in contract/testdata; the
// project's decisions on top of them are in overlay.json.
//go:generate go run ../cmd/bulkdesk contract derive -o json contract/testdata/multi-bulks.yml
