package mappingmemory

import (
	"context"
	"maps"
	"sync"
)

// InMemory is Records in memory: where the browser gives no IndexedDB,
// and in tests.
type InMemory struct {
	mu      sync.Mutex
	records map[string]string
}

// NewInMemory returns empty Records in memory.
func NewInMemory() *InMemory { return &InMemory{records: make(map[string]string)} }

// All returns every record.
func (s *InMemory) All(context.Context) (map[string]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.records), nil
}

// Put stores text at key and deletes the records at forget.
func (s *InMemory) Put(_ context.Context, key, text string, forget []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range forget {
		delete(s.records, k)
	}
	s.records[key] = text
	return nil
}
