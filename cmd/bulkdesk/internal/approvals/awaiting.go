//go:build !js

package approvals

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	"go.etcd.io/bbolt"
)

// The queue of bulks awaiting a second operator is an index beside the
// records (bucketAwaiting), so that listing a page of it reads that page,
// however many bulks were ever recorded: one key per awaiting bulk,
//
//	scope 0x00 | submitted at (8 bytes, big-endian) | bulk key
//
// with no value; a bulk's key leaves it when the bulk is executed or
// cancelled. Keys sort by scope, then time, then bulk id, so a page is
// a walk backwards from its cursor.

// queueKey is r's key in the queue index.
func queueKey(r Record) []byte {
	return cursorKey(scopeOf(r.BulkID), r.SubmittedAt.UnixNano(), r.BulkID)
}

func cursorKey(scope string, nanos int64, bulkKey string) []byte {
	k := make([]byte, 0, len(scope)+9+len(bulkKey))
	k = append(append(k, scope...), 0)
	// The sign bit flipped, times before 1970 sort before those after.
	k = binary.BigEndian.AppendUint64(k, uint64(nanos)^(1<<63))
	return append(k, bulkKey...)
}

// queue puts r in the queue while it awaits a second operator.
func queue(tx *bbolt.Tx, r Record) error {
	if r.State() != StateAwaiting {
		return nil
	}
	return tx.Bucket(bucketAwaiting).Put(queueKey(r), nil)
}

// unqueue takes r out of the queue once it no longer awaits.
func unqueue(tx *bbolt.Tx, r Record) error {
	if r.State() == StateAwaiting {
		return nil
	}
	return tx.Bucket(bucketAwaiting).Delete(queueKey(r))
}

// indexQueue fills the queue from the records of a file written before
// it had one: once, when it is opened.
func indexQueue(tx *bbolt.Tx) error {
	if tx.Bucket(bucketAwaiting) != nil {
		return nil
	}
	if _, err := tx.CreateBucket(bucketAwaiting); err != nil {
		return err
	}
	return tx.Bucket(bucketBulks).ForEach(func(_, v []byte) error {
		var r Record
		if err := json.Unmarshal(v, &r); err != nil {
			return err
		}
		return queue(tx, r)
	})
}

// Awaiting returns the records of p.Scope awaiting a second operator,
// newest first, from p's cursor on, at most p.Limit.
func (s *Store) Awaiting(p Page) ([]Record, error) {
	if p.Limit < 1 {
		return nil, errors.New("a page of the queue needs a limit")
	}
	prefix := append([]byte(p.Scope), 0)
	// The walk starts below upper, the first key it may not return.
	upper := append([]byte(p.Scope), 1)
	if !p.Before.IsZero() {
		upper = cursorKey(p.Scope, p.Before.UnixNano(), p.BeforeID)
	}
	var out []Record
	err := s.db.View(func(tx *bbolt.Tx) error {
		bulks := tx.Bucket(bucketBulks)
		c := tx.Bucket(bucketAwaiting).Cursor()
		k, _ := c.Seek(upper)
		if k == nil {
			k, _ = c.Last()
		} else {
			k, _ = c.Prev()
		}
		for ; k != nil && bytes.HasPrefix(k, prefix) && len(out) < p.Limit; k, _ = c.Prev() {
			key := k[len(prefix)+8:]
			v := bulks.Get(key)
			if v == nil {
				return fmt.Errorf("the queue names bulk %s, which has no record", key)
			}
			var r Record
			if err := json.Unmarshal(v, &r); err != nil {
				return err
			}
			out = append(out, r)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the bulks awaiting a second operator: %w", err)
	}
	return out, nil
}
