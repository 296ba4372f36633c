//go:build !js

// Package journalstore keeps the command line's submission journal in a
// bbolt database, so that several bulkdesk processes can share one journal
// without losing a record.
//
// # Why bbolt
//
// bbolt is a well-kept, pure-Go embedded store (no cgo): every write is an
// ACID transaction that is fsynced before Commit returns, and the database
// file carries an exclusive flock while it is open, which keeps a second
// process out.
//
// # Locking
//
// That lock lasts as long as the database is open. A submission takes
// minutes, so a process that kept the journal open throughout would shut
// every other submission out. A Store therefore opens the database for
// each operation, does it in one transaction and closes it again: the
// lock is held for milliseconds. A process that finds the file locked
// waits for it (bbolt's lock timeout, retried until [Options.LockWait] or
// the context ends), so two concurrent submits interleave their writes and
// both make progress. Every Put reads and writes within one transaction,
// so no process overwrites another's entries.
//
// # Layout
//
// Entries are kept as JSON, so that fields added to [submission.Entry]
// travel without a change here. The bucket "entries" maps a sequence
// number (the order entries were first written: [Store.Entries] returns
// them oldest first) to the entry; "refs" maps each idempotency-ref to
// its sequence number; "meta" holds the layout's version and which old
// JSON journals were imported.
//
// # Older journals
//
// bulkdesk used to keep its journal in one JSON file (see
// [filestore.Journal]). [Open] imports such a file ([Options.Legacy]) once,
// in one transaction, and records that it did: the old file is left where
// it was but no longer read; entries the database already holds win.
package journalstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/filestore"
)

const (
	// DefaultRetention is how long a submission stays in the journal after
	// its last change: well past the API's 24-hour ref memory, so that a
	// file submitted again weeks later is still recognised.
	DefaultRetention = 35 * 24 * time.Hour
	// DefaultLockWait is how long an operation waits for another process
	// to release the journal.
	DefaultLockWait = 30 * time.Second
	// lockTry is one bbolt lock attempt, between checks of the context.
	lockTry = 250 * time.Millisecond
	// layout is the version of the buckets' layout.
	layout = 1
	// mode is the database file's permissions: the journal names bulks and
	// keeps request bodies.
	mode = 0o600
)

var (
	bucketEntries = []byte("entries")
	bucketRefs    = []byte("refs")
	bucketMeta    = []byte("meta")
	keyLayout     = []byte("layout")
	importedKey   = "imported "
)

// Options tune a Store; the zero value is usable.
type Options struct {
	// Legacy names an old JSON journal to import once; "" for none.
	Legacy string
	// Retention prunes submissions whose last change is older, when the
	// store is opened; 0 keeps everything.
	Retention time.Duration
	// LockWait bounds the wait for another process; 0 means
	// DefaultLockWait.
	LockWait time.Duration
	// Now is the clock of pruning; nil means time.Now.
	Now func() time.Time
}

// Store is a submission.Journal in a bbolt database. It holds no open
// file between operations; any number of Stores, in any number of
// processes, may use the same path at once.
type Store struct {
	path     string
	lockWait time.Duration
	imported int
	pruned   int
}

var _ submission.Journal = (*Store)(nil)

// Paths returns where the database of the journal named path is kept,
// and the old JSON journal it imports: a name ending in ".json" is an old
// journal, whose database goes beside it with ".db"; a database named
// "X.db" imports "X.json" of the same folder.
func Paths(path string) (db, legacy string) {
	switch filepath.Ext(path) {
	case ".json":
		base := strings.TrimSuffix(path, ".json")
		return base + ".db", path
	case ".db":
		return path, strings.TrimSuffix(path, ".db") + ".json"
	}
	return path, ""
}

// Open prepares the journal at path, creating it (mode 0600, its folder
// 0700) when missing, imports the old journal o.Legacy once, and prunes
// what is older than o.Retention.
func Open(ctx context.Context, path string, o Options) (*Store, error) {
	s := &Store{path: path, lockWait: o.LockWait}
	if s.lockWait <= 0 {
		s.lockWait = DefaultLockWait
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating the journal's folder: %w", err)
	}
	_, statErr := os.Stat(path)
	created := errors.Is(statErr, fs.ErrNotExist)
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		meta, err := tx.CreateBucketIfNotExists(bucketMeta)
		if err != nil {
			return err
		}
		if v := meta.Get(keyLayout); v != nil {
			if n := binary.BigEndian.Uint64(v); n != layout {
				return fmt.Errorf("the journal %s has layout %d; this program reads layout %d", path, n, layout)
			}
		} else if err := meta.Put(keyLayout, seqKey(layout)); err != nil {
			return err
		}
		if _, err := tx.CreateBucketIfNotExists(bucketEntries); err != nil {
			return err
		}
		_, err = tx.CreateBucketIfNotExists(bucketRefs)
		return err
	})
	if err != nil {
		return nil, err
	}
	// bbolt applies the mode only to a file it creates.
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(path, mode); err != nil {
			return nil, fmt.Errorf("making the journal private: %w", err)
		}
	}
	if created {
		// Make the new file's name durable; not every system can sync a
		// folder.
		if d, err := os.Open(dir); err == nil {
			_ = d.Sync()
			d.Close()
		}
	}
	if o.Legacy != "" {
		if s.imported, err = s.importLegacy(ctx, o.Legacy); err != nil {
			return nil, err
		}
	}
	if o.Retention > 0 {
		now := time.Now
		if o.Now != nil {
			now = o.Now
		}
		if s.pruned, err = s.Prune(ctx, now().Add(-o.Retention)); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Path returns the database's path.
func (s *Store) Path() string { return s.path }

// Imported returns how many entries Open imported from the old journal.
func (s *Store) Imported() int { return s.imported }

// Pruned returns how many submissions Open pruned.
func (s *Store) Pruned() int { return s.pruned }

// with opens the database, runs fn in one transaction and closes it,
// waiting while another process holds the lock.
func (s *Store) with(ctx context.Context, writable bool, fn func(*bbolt.Tx) error) error {
	start := time.Now()
	for {
		db, err := bbolt.Open(s.path, mode, &bbolt.Options{Timeout: lockTry})
		if errors.Is(err, bolterrors.ErrTimeout) {
			if ctx.Err() != nil {
				return fmt.Errorf("waiting for the journal %s: %w", s.path, ctx.Err())
			}
			if time.Since(start) >= s.lockWait {
				return fmt.Errorf("the journal %s stayed locked by another process for %s", s.path, s.lockWait.Round(time.Second))
			}
			continue
		}
		if errors.Is(err, bolterrors.ErrInvalid) || errors.Is(err, bolterrors.ErrVersionMismatch) || errors.Is(err, bolterrors.ErrChecksum) {
			return fmt.Errorf("%s is not a bulkdesk journal database (%v); an older bulkdesk's JSON journal is imported from a name ending in .json", s.path, err)
		}
		if err != nil {
			return fmt.Errorf("opening the journal: %w", err)
		}
		if writable {
			err = db.Update(fn)
		} else {
			err = db.View(fn)
		}
		if cerr := db.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("closing the journal: %w", cerr)
		}
		return err
	}
}

func (s *Store) update(ctx context.Context, fn func(*bbolt.Tx) error) error {
	return s.with(ctx, true, fn)
}

func (s *Store) view(ctx context.Context, fn func(*bbolt.Tx) error) error {
	return s.with(ctx, false, fn)
}

func seqKey(n uint64) []byte { return binary.BigEndian.AppendUint64(nil, n) }

// put stores e in tx, replacing the entry of the same ref in place.
func put(tx *bbolt.Tx, e submission.Entry) error {
	if e.Ref == "" {
		return errors.New("a journal entry needs a ref")
	}
	if e.State == submission.Submitted {
		// The bulk is confirmed: nothing will resend the body.
		e.Body = nil
	}
	data, err := json.Marshal(e)
	if err != nil {
		return err
	}
	entries, refs := tx.Bucket(bucketEntries), tx.Bucket(bucketRefs)
	key := bytes.Clone(refs.Get([]byte(e.Ref)))
	if key != nil && e.State != submission.Submitted {
		// Two processes submitting the same content share its refs: one
		// that planned before the other's bulk was confirmed must not
		// make the journal forget that bulk.
		var stored struct {
			State submission.State `json:"state"`
		}
		if err := json.Unmarshal(entries.Get(key), &stored); err == nil && stored.State == submission.Submitted {
			return nil
		}
	}
	if key == nil {
		seq, err := entries.NextSequence()
		if err != nil {
			return err
		}
		key = seqKey(seq)
		if err := refs.Put([]byte(e.Ref), key); err != nil {
			return err
		}
	}
	return entries.Put(key, data)
}

// Put stores e, replacing the entry with the same Ref; it returns once
// the transaction is committed and synced to disk. The body of a
// submitted entry is dropped, and a submitted entry is never replaced by
// one that is not (another process's stale view of the same chunk).
func (s *Store) Put(ctx context.Context, e submission.Entry) error {
	if err := s.update(ctx, func(tx *bbolt.Tx) error { return put(tx, e) }); err != nil {
		return fmt.Errorf("writing the journal: %w", err)
	}
	return nil
}

// Entries returns every entry, oldest first.
func (s *Store) Entries(ctx context.Context) ([]submission.Entry, error) {
	var out []submission.Entry
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketEntries).ForEach(func(k, v []byte) error {
			var e submission.Entry
			if err := json.Unmarshal(v, &e); err != nil {
				return fmt.Errorf("entry %x: %w", k, err)
			}
			out = append(out, e)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("reading the journal: %w", err)
	}
	return out, nil
}

func remove(tx *bbolt.Tx, ref string) error {
	entries, refs := tx.Bucket(bucketEntries), tx.Bucket(bucketRefs)
	key := bytes.Clone(refs.Get([]byte(ref)))
	if key == nil {
		return nil
	}
	if err := entries.Delete(key); err != nil {
		return err
	}
	return refs.Delete([]byte(ref))
}

// Delete removes the entries with the given refs, in one transaction.
func (s *Store) Delete(ctx context.Context, refs ...string) error {
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		for _, r := range refs {
			if err := remove(tx, r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("writing the journal: %w", err)
	}
	return nil
}

// brief is what pruning and forgetting read of an entry.
type brief struct {
	Ref        string    `json:"ref"`
	Submission string    `json:"submission"`
	Updated    time.Time `json:"updated"`
}

func briefs(tx *bbolt.Tx) ([]brief, error) {
	var out []brief
	err := tx.Bucket(bucketEntries).ForEach(func(k, v []byte) error {
		var b brief
		if err := json.Unmarshal(v, &b); err != nil {
			return fmt.Errorf("entry %x: %w", k, err)
		}
		out = append(out, b)
		return nil
	})
	return out, err
}

// Prune removes, in one transaction, the submissions whose last change
// is before the given time, and returns how many it removed. A
// submission goes whole, never some of its chunks.
func (s *Store) Prune(ctx context.Context, before time.Time) (int, error) {
	n := 0
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		all, err := briefs(tx)
		if err != nil {
			return err
		}
		latest := make(map[string]time.Time)
		for _, b := range all {
			if t, ok := latest[b.Submission]; !ok || b.Updated.After(t) {
				latest[b.Submission] = b.Updated
			}
		}
		for _, t := range latest {
			if t.Before(before) {
				n++
			}
		}
		for _, b := range all {
			if latest[b.Submission].Before(before) {
				if err := remove(tx, b.Ref); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("pruning the journal: %w", err)
	}
	return n, nil
}

// Forget removes every entry of the submission id, in one transaction,
// and returns how many it removed.
func (s *Store) Forget(ctx context.Context, id string) (int, error) {
	n := 0
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		all, err := briefs(tx)
		if err != nil {
			return err
		}
		for _, b := range all {
			if b.Submission == id {
				if err := remove(tx, b.Ref); err != nil {
					return err
				}
				n++
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("writing the journal: %w", err)
	}
	return n, nil
}

// importLegacy imports the old JSON journal at path unless the store
// records that it did already; it returns how many entries it added.
func (s *Store) importLegacy(ctx context.Context, path string) (int, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return 0, err
	}
	marker := []byte(importedKey + abs)
	n := 0
	err = s.update(ctx, func(tx *bbolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if meta.Get(marker) != nil {
			return nil
		}
		old, err := filestore.NewJournal(path).Entries(ctx)
		if err != nil {
			return fmt.Errorf("importing the old journal (move it away to start afresh): %w", err)
		}
		refs := tx.Bucket(bucketRefs)
		for _, e := range old {
			if e.Ref == "" || refs.Get([]byte(e.Ref)) != nil {
				continue
			}
			if err := put(tx, e); err != nil {
				return err
			}
			n++
		}
		return meta.Put(marker, []byte(time.Now().UTC().Format(time.RFC3339)))
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}
