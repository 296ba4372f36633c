//go:build !js

// Package statedir opens the bbolt databases a single server keeps in its
// state folder (-state-dir): each stays open, and locked against other
// processes, until it is closed, since two servers writing one record
// would each trust its own view. A Guard (Watch) tells when the folder or
// a database was removed or replaced under the open files, which the lock
// cannot see.
package statedir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// DefaultLockWait is how long Open waits for another process to release
// a database before it gives up.
const DefaultLockWait = 2 * time.Second

// Open opens, or creates, the database name in dir (mode 0700 for a new
// folder, 0600 for the file), waiting at most lockWait (0 means
// DefaultLockWait) for another process to release it. what names the
// database in errors ("the four-eyes record").
func Open(dir, name, what string, lockWait time.Duration) (*bbolt.DB, error) {
	if lockWait <= 0 {
		lockWait = DefaultLockWait
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating the state folder %s: %w", dir, err)
	}
	path := filepath.Join(dir, name)
	// The file bbolt opens first is the database: kept to learn what it
	// is, since a path names whatever is there when it is read.
	var file *os.File
	var first sync.Once
	openFile := func(name string, flag int, mode os.FileMode) (*os.File, error) {
		f, err := os.OpenFile(name, flag, mode)
		first.Do(func() { file = f })
		return f, err
	}
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: lockWait, OpenFile: openFile})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("%s %s is in use by another process (waited %s): each server needs a -state-dir of its own", what, path, lockWait)
	}
	if err != nil {
		return nil, fmt.Errorf("opening %s %s: %w", what, path, err)
	}
	if err := remember(dir, path, file); err != nil {
		db.Close()
		return nil, fmt.Errorf("opening %s %s: %w", what, path, err)
	}
	return db, nil
}
