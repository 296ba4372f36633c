//go:build js

package main

import (
	"context"
	"errors"
	"io"
	"time"
)

// openJournal: the command line's journal store needs flock and mmap,
// which WebAssembly lacks; the console keeps its journal in the browser.
func openJournal(context.Context, string, time.Duration, io.Writer) (cliJournal, error) {
	return nil, errors.New("the journal needs the native bulkdesk command")
}
