package apijobs

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/bulkdesk/bulkdesk/app/worker/handoff"
	"github.com/bulkdesk/bulkdesk/schema"
)

// validators keeps the validator of the last contract the first worker
// handed over: building one compiles every kind's schema, and the contract
// in use seldom changes between reviews.
type validators struct {
	mu  sync.Mutex
	key [sha256.Size]byte
	v   *schema.Validator
}

// of returns the validator of contract c.
func (vs *validators) of(c handoff.Contract) (*schema.Validator, error) {
	data, err := json.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("reading the contract in use: %w", err)
	}
	key := sha256.Sum256(data)
	vs.mu.Lock()
	defer vs.mu.Unlock()
	if vs.v != nil && vs.key == key {
		return vs.v, nil
	}
	v, err := c.Validator()
	if err != nil {
		return nil, err
	}
	vs.key, vs.v = key, v
	return v, nil
}
