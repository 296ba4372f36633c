//go:build !js

package approvals

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.etcd.io/bbolt"
)

// Put stores r unless the bulk already has a record, and says whether it
// stored it. The first submitter stays: the API answers a submission
// repeated with the same idempotency-ref with the earlier bulk, and a
// second operator repeating it must not become its maker.
func (s *Store) Put(r Record) (bool, error) {
	if r.BulkID == "" || r.SubmittedBy == "" {
		return false, errors.New("a four-eyes record needs a bulk id and a user")
	}
	data, err := json.Marshal(r)
	if err != nil {
		return false, err
	}
	stored := false
	err = s.db.Update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketBulks)
		if b.Get([]byte(r.BulkID)) != nil {
			return nil
		}
		stored = true
		return b.Put([]byte(r.BulkID), data)
	})
	if err != nil {
		return false, fmt.Errorf("recording who submitted bulk %s: %w", r.BulkID, err)
	}
	return stored, nil
}

// Get returns the record of a bulk, and false when there is none.
func (s *Store) Get(bulkID string) (Record, bool, error) {
	var r Record
	found := false
	err := s.db.View(func(tx *bbolt.Tx) error {
		v := tx.Bucket(bucketBulks).Get([]byte(bulkID))
		if v == nil {
			return nil
		}
		found = true
		return json.Unmarshal(v, &r)
	})
	if err != nil {
		return Record{}, false, fmt.Errorf("reading who submitted bulk %s: %w", bulkID, err)
	}
	return r, found, nil
}

// Executed records that user executed the bulk, when it has a record and
// no execution yet: the first accepted execution is the approval.
func (s *Store) Executed(bulkID, user string, at time.Time) error {
	err := s.db.Update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketBulks)
		v := b.Get([]byte(bulkID))
		if v == nil {
			return nil
		}
		var r Record
		if err := json.Unmarshal(v, &r); err != nil {
			return err
		}
		if r.ExecutedBy != "" {
			return nil
		}
		at := at.UTC()
		r.ExecutedBy, r.ExecutedAt = user, &at
		data, err := json.Marshal(r)
		if err != nil {
			return err
		}
		return b.Put([]byte(bulkID), data)
	})
	if err != nil {
		return fmt.Errorf("recording who executed bulk %s: %w", bulkID, err)
	}
	return nil
}
