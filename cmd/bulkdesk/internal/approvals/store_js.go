//go:build js

package approvals

import (
	"errors"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/bulkreview"
)

// errNative: bbolt needs flock and mmap, which WebAssembly lacks; only
// the native server enforces the rule.
var errNative = errors.New("the four-eyes record needs the native bulkdesk command")

// FileName is the database's name inside the state folder.
const FileName = "four-eyes.db"

// A Store is the record of submitted bulks; under WebAssembly it cannot
// be opened.
type Store struct{}

// Open fails under WebAssembly.
func Open(string, time.Duration) (*Store, error) { return nil, errNative }

// Path returns "".
func (*Store) Path() string { return "" }

// Close does nothing.
func (*Store) Close() error { return nil }

// Put fails under WebAssembly.
func (*Store) Put(Record) (bool, error) { return false, errNative }

// Get fails under WebAssembly.
func (*Store) Get(string) (Record, bool, error) { return Record{}, false, errNative }

// Receipt fails under WebAssembly.
func (*Store) Receipt(string) (*bulkreview.Receipt, bool, error) { return nil, false, errNative }

// Cancelled fails under WebAssembly.
func (*Store) Cancelled(string, string, time.Time) error { return errNative }

// Settled fails under WebAssembly.
func (*Store) Settled(string, bulkapi.Status) error { return errNative }

// Awaiting fails under WebAssembly.
func (*Store) Awaiting(Page) ([]Record, error) { return nil, errNative }

// Executed fails under WebAssembly.
func (*Store) Executed(string, string, time.Time) error { return errNative }

// BeginFlight fails under WebAssembly.
func (*Store) BeginFlight(InFlight) error { return errNative }

// EndFlight fails under WebAssembly.
func (*Store) EndFlight(string) error { return errNative }

// Flights fails under WebAssembly.
func (*Store) Flights(time.Time) ([]InFlight, error) { return nil, errNative }
