//go:build !js

package approvals

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"go.etcd.io/bbolt"
)

// Put stores r unless the bulk already has a record, and says whether it
// stored it: its receipt apart (bucketReceipts), and its place in the
// queue while it awaits a second operator (awaiting.go). The first
// submitter stays: the API answers a submission repeated with the same
// idempotency-ref with the earlier bulk, and a second operator repeating
// it must not become its maker, nor their receipt its receipt.
func (s *Store) Put(r Record) (bool, error) {
	if r.BulkID == "" || r.SubmittedBy == "" {
		return false, errors.New("a four-eyes record needs a bulk id and a user")
	}
	data, err := json.Marshal(r)
	if err != nil {
		return false, err
	}
	var receipt []byte
	if r.Receipt != nil {
		if receipt, err = json.Marshal(r.Receipt); err != nil {
			return false, fmt.Errorf("writing the receipt of bulk %s: %w", r.BulkID, err)
		}
	}
	stored := false
	err = s.db.Update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketBulks)
		if b.Get([]byte(r.BulkID)) != nil {
			return nil
		}
		stored = true
		if receipt != nil {
			if err := tx.Bucket(bucketReceipts).Put([]byte(r.BulkID), receipt); err != nil {
				return err
			}
		}
		if err := queue(tx, r); err != nil {
			return err
		}
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

// Receipt returns the receipt kept with a bulk's record, and false when
// there is none.
func (s *Store) Receipt(bulkID string) (*bulkreview.Receipt, bool, error) {
	var rc *bulkreview.Receipt
	err := s.db.View(func(tx *bbolt.Tx) error {
		v := tx.Bucket(bucketReceipts).Get([]byte(bulkID))
		if v == nil {
			return nil
		}
		rc = new(bulkreview.Receipt)
		return json.Unmarshal(v, rc)
	})
	if err != nil {
		return nil, false, fmt.Errorf("reading the receipt of bulk %s: %w", bulkID, err)
	}
	return rc, rc != nil, nil
}

// Executed records that user executed the bulk, when it has a record and
// no execution yet: the first accepted execution is the approval.
func (s *Store) Executed(bulkID, user string, at time.Time) error {
	return s.settle(bulkID, "who executed", func(r *Record) bool {
		if r.ExecutedBy != "" {
			return false
		}
		at := at.UTC()
		r.ExecutedBy, r.ExecutedAt = user, &at
		return true
	})
}

// Cancelled records that user cancelled the bulk, when it has a record
// and no cancellation yet.
func (s *Store) Cancelled(bulkID, user string, at time.Time) error {
	return s.settle(bulkID, "who cancelled", func(r *Record) bool {
		if r.CancelledBy != "" {
			return false
		}
		at := at.UTC()
		r.CancelledBy, r.CancelledAt = user, &at
		return true
	})
}

// Settled records the API's state of a recorded bulk awaiting a second
// operator, when it is no longer SUBMITTED.
func (s *Store) Settled(bulkID string, apiStatus bulkapi.Status) error {
	return s.settle(bulkID, "the API's state of", func(r *Record) bool {
		if r.State() != StateAwaiting || apiStatus == bulkapi.Submitted || apiStatus == "" {
			return false
		}
		r.APIStatus = apiStatus
		return true
	})
}

// settle changes the record of a bulk with change, when it has one and
// change says it changed it, and takes the bulk out of the queue once it
// no longer awaits a second operator; what names the change in an error.
func (s *Store) settle(bulkID, what string, change func(*Record) bool) error {
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
		if !change(&r) {
			return nil
		}
		data, err := json.Marshal(r)
		if err != nil {
			return err
		}
		if err := unqueue(tx, r); err != nil {
			return err
		}
		return b.Put([]byte(bulkID), data)
	})
	if err != nil {
		return fmt.Errorf("recording %s bulk %s: %w", what, bulkID, err)
	}
	return nil
}
