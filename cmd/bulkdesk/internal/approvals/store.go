//go:build !js

package approvals

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/statedir"
	"go.etcd.io/bbolt"
)

// FileName is the database's name inside the state folder.
const FileName = "four-eyes.db"

var (
	bucketBulks    = []byte("bulks")
	bucketInFlight = []byte("in-flight")
	// bucketReceipts keeps the receipt of each bulk that has one, by
	// bulk: apart from its record, which every execution reads.
	bucketReceipts = []byte("receipts")
	// bucketAwaiting is the queue's index (awaiting.go).
	bucketAwaiting = []byte("awaiting")
)

// A Store is the record of submitted bulks, in a bbolt database that stays
// open, and locked against other processes, until Close: two servers
// sharing one record could each let its own maker execute.
type Store struct {
	db   *bbolt.DB
	path string
}

// Open opens, or creates, the record in dir (see statedir.Open): it fails
// after lockWait (0 means statedir.DefaultLockWait) when another process
// holds the database.
func Open(dir string, lockWait time.Duration) (*Store, error) {
	db, err := statedir.Open(dir, FileName, "the four-eyes record", lockWait)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, FileName)
	err = db.Update(func(tx *bbolt.Tx) error {
		for _, b := range [][]byte{bucketBulks, bucketInFlight, bucketReceipts} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return indexQueue(tx)
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("preparing the four-eyes record %s: %w", path, err)
	}
	return &Store{db: db, path: path}, nil
}

// Path returns the database file's path.
func (s *Store) Path() string { return s.path }

// Close releases the database and its lock.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("closing the four-eyes record %s: %w", s.path, err)
	}
	return nil
}
