package schema

// The built-in schemas are derived from the bulk submissions of the
// reference contract, kept as facts only in contract/testdata.
//go:generate go run ./contract/derive -o json contract/testdata/multi-bulks.yml
