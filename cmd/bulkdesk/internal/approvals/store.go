//go:build !js

package approvals

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// FileName is the database's name inside the state folder.
const FileName = "four-eyes.db"

// DefaultLockWait is how long Open waits for another process to release
// the database before it gives up.
const DefaultLockWait = 2 * time.Second

var bucketBulks = []byte("bulks")

// A Store is the record of submitted bulks, in a bbolt database that stays
// open, and locked against other processes, until Close: two servers
// sharing one record could each let its own maker execute.
type Store struct {
	db   *bbolt.DB
	path string
}

// Open opens, or creates, the record in dir (mode 0700 for a new folder,
// 0600 for the file). It fails after lockWait (0 means DefaultLockWait)
// when another process holds the database.
func Open(dir string, lockWait time.Duration) (*Store, error) {
	if lockWait <= 0 {
		lockWait = DefaultLockWait
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating the state folder %s: %w", dir, err)
	}
	path := filepath.Join(dir, FileName)
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: lockWait})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("the four-eyes record %s is in use by another process (waited %s): each server needs a -state-dir of its own", path, lockWait)
	}
	if err != nil {
		return nil, fmt.Errorf("opening the four-eyes record %s: %w", path, err)
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(bucketBulks)
		return err
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
