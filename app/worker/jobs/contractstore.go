package jobs

import (
	"context"
	"sync"
)

// A ContractStore keeps the contract in use and the strict setting, as
// one record of JSON, so that they outlive the worker: in the browser an
// IndexedDB database (wasm/worker), in tests memory.
type ContractStore interface {
	// Load returns the record kept, or nil when there is none.
	Load(ctx context.Context) ([]byte, error)
	// Save replaces the record.
	Save(ctx context.Context, record []byte) error
}

// MemoryContracts is a ContractStore in memory. Two servers given the same
// one behave like a worker before and after a reload.
type MemoryContracts struct {
	mu     sync.Mutex
	record []byte
}

func (m *MemoryContracts) Load(context.Context) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.record, nil
}

func (m *MemoryContracts) Save(_ context.Context, record []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.record = append([]byte(nil), record...)
	return nil
}
