package memstore

import (
	"context"
	"maps"
	"sync"

	"github.com/bulkdesk/bulkdesk/app/submission"
)

// RecordCache is a record of the API's bulks in memory.
type RecordCache struct {
	mu     sync.Mutex
	scopes map[string]map[string]submission.RecordedBulk
}

// NewRecordCache returns an empty record in memory.
func NewRecordCache() *RecordCache {
	return &RecordCache{scopes: make(map[string]map[string]submission.RecordedBulk)}
}

// Load returns a copy of the scope's bulks.
func (m *RecordCache) Load(_ context.Context, scope string) (map[string]submission.RecordedBulk, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return maps.Clone(m.scopes[scope]), nil
}

// Update keeps put and forgets drop.
func (m *RecordCache) Update(_ context.Context, scope string, put []submission.RecordedBulk, drop []string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.scopes[scope] = submission.UpdateBulks(m.scopes[scope], put, drop)
	return nil
}
