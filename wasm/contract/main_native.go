//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// The reader runs in the browser; natively, "bulkdesk contract" does its
// work. Building it natively keeps "go build ./..." whole and lets its
// reading be tested without a browser.
func main() {
	fmt.Fprintln(os.Stderr, "the console's contract reader runs in the browser; use \"bulkdesk contract\" here")
	os.Exit(2)
}
