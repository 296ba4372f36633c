//go:build js

package bulkrecord

import (
	"context"
	"errors"
	"time"

	"github.com/bulkdesk/bulkdesk/app/submission"
)

// errNative: bbolt needs flock and mmap, which WebAssembly lacks.
var errNative = errors.New("the server's record of bulks needs the native bulkdesk command")

// FileName is the record's name inside the state folder.
const FileName = "bulk-record.db"

// File is a single server's record of bulks; under WebAssembly it cannot
// be opened.
type File struct{}

// Open fails under WebAssembly.
func Open(string, time.Duration) (*File, error) { return nil, errNative }

// Close does nothing.
func (*File) Close() error { return nil }

// Load fails under WebAssembly.
func (*File) Load(context.Context, string) (map[string]submission.RecordedBulk, error) {
	return nil, errNative
}

// Update fails under WebAssembly.
func (*File) Update(context.Context, string, []submission.RecordedBulk, []string) error {
	return errNative
}
