//go:build js

package main

// journalExists: WebAssembly has no command line journal (see openJournal).
func journalExists(string) bool { return false }
