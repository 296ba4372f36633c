//go:build js && wasm

package main

// The worker reads the dates of a file in the time zone the operator
// chose: the browser has no zone database Go can read, so the worker's
// program carries one (380 kB, 110 kB gzipped). The
// page and the second worker do not need it.
import _ "time/tzdata"
