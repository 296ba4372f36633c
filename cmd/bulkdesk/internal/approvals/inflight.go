//go:build !js

package approvals

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.etcd.io/bbolt"
)

// BeginFlight keeps f until EndFlight or f.Until, and drops the flights
// that lapsed before f.Since: those a crash left.
func (s *Store) BeginFlight(f InFlight) error {
	if f.ID == "" || f.User == "" {
		return errors.New("a call in flight needs an id and a user")
	}
	data, err := json.Marshal(f)
	if err != nil {
		return err
	}
	err = s.db.Update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketInFlight)
		var lapsed [][]byte
		err := b.ForEach(func(k, v []byte) error {
			var old InFlight
			if json.Unmarshal(v, &old) != nil || !old.Until.After(f.Since) {
				lapsed = append(lapsed, k)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range lapsed {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		return b.Put([]byte(f.ID), data)
	})
	if err != nil {
		return fmt.Errorf("recording %s's call in flight: %w", f.User, err)
	}
	return nil
}

// EndFlight forgets the flight id names.
func (s *Store) EndFlight(id string) error {
	err := s.db.Update(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketInFlight).Delete([]byte(id))
	})
	if err != nil {
		return fmt.Errorf("ending a call in flight: %w", err)
	}
	return nil
}

// Flights returns the flights whose Until is after at.
func (s *Store) Flights(at time.Time) ([]InFlight, error) {
	var out []InFlight
	err := s.db.View(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketInFlight).ForEach(func(_, v []byte) error {
			var f InFlight
			if err := json.Unmarshal(v, &f); err != nil {
				return err
			}
			if f.Until.After(at) {
				out = append(out, f)
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("reading the calls in flight: %w", err)
	}
	return out, nil
}
