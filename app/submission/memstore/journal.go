package memstore

import (
	"context"
	"slices"
	"sync"

	"github.com/bulkdesk/bulkdesk/app/submission"
)

// Journal is a submission journal in memory.
type Journal struct {
	mu      sync.Mutex
	entries []submission.Entry
}

// NewJournal returns an empty journal in memory.
func NewJournal() *Journal { return &Journal{} }

// Put stores e.
func (m *Journal) Put(_ context.Context, e submission.Entry) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.entries = submission.WithEntry(m.entries, e)
	return nil
}

// Entries returns a copy of every entry, oldest first.
func (m *Journal) Entries(context.Context) ([]submission.Entry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.entries), nil
}

// Delete removes entries.
func (m *Journal) Delete(_ context.Context, refs ...string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.entries = submission.WithoutEntries(m.entries, refs)
	return nil
}
