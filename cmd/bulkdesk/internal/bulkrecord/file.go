//go:build !js

package bulkrecord

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/statedir"
	"go.etcd.io/bbolt"
)

// FileName is the record's name inside the state folder.
const FileName = "bulk-record.db"

// File is a single server's record of bulks: a bbolt database, one bucket
// per scope, one key per bulk, that stays open, and locked against other
// processes, until Close.
type File struct {
	db   *bbolt.DB
	path string
}

var _ submission.RecordCache = (*File)(nil)

// Open opens, or creates, the record in dir, waiting at most lockWait
// (0 means statedir.DefaultLockWait) for another process to release it.
func Open(dir string, lockWait time.Duration) (*File, error) {
	db, err := statedir.Open(dir, FileName, "the record of bulks", lockWait)
	if err != nil {
		return nil, err
	}
	return &File{db: db, path: filepath.Join(dir, FileName)}, nil
}

// Close releases the database and its lock.
func (f *File) Close() error {
	if err := f.db.Close(); err != nil {
		return fmt.Errorf("closing the record of bulks %s: %w", f.path, err)
	}
	return nil
}

// Load returns the bulks kept for scope.
func (f *File) Load(_ context.Context, scope string) (map[string]submission.RecordedBulk, error) {
	out := make(map[string]submission.RecordedBulk)
	err := f.db.View(func(tx *bbolt.Tx) error {
		b := tx.Bucket([]byte(scope))
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			rb, err := decode(v)
			if err != nil {
				return fmt.Errorf("bulk %s: %w", k, err)
			}
			out[rb.BulkID] = rb
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("reading the record of bulks %s: %w", f.path, err)
	}
	return out, nil
}

// Update keeps put and forgets drop in one transaction.
func (f *File) Update(_ context.Context, scope string, put []submission.RecordedBulk, drop []string) error {
	if len(put) == 0 && len(drop) == 0 {
		return nil
	}
	err := f.db.Update(func(tx *bbolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists([]byte(scope))
		if err != nil {
			return err
		}
		for _, id := range drop {
			if err := b.Delete([]byte(id)); err != nil {
				return err
			}
		}
		for _, rb := range put {
			v, err := encode(rb)
			if err != nil {
				return err
			}
			if err := b.Put([]byte(rb.BulkID), v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("keeping the record of bulks %s: %w", f.path, err)
	}
	return nil
}

// encode writes a bulk as the length of its JSON (without fingerprints),
// the JSON, then the fingerprints' bytes: a million fingerprints are read
// back without decoding base64.
func encode(rb submission.RecordedBulk) ([]byte, error) {
	fps := rb.Fingerprints
	rb.Fingerprints = nil
	head, err := json.Marshal(rb)
	if err != nil {
		return nil, err
	}
	out := binary.AppendUvarint(make([]byte, 0, binary.MaxVarintLen64+len(head)+len(fps)), uint64(len(head)))
	out = append(out, head...)
	return append(out, fps...), nil
}

// decode reads what encode wrote, copying it out of bbolt's memory.
func decode(v []byte) (submission.RecordedBulk, error) {
	var rb submission.RecordedBulk
	n, size := binary.Uvarint(v)
	if size <= 0 || uint64(len(v)-size) < n {
		return rb, errors.New("a damaged entry")
	}
	if err := json.Unmarshal(v[size:size+int(n)], &rb); err != nil {
		return rb, fmt.Errorf("a damaged entry: %w", err)
	}
	rb.Fingerprints = append([]byte(nil), v[size+int(n):]...)
	return rb, nil
}
