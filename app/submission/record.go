package submission

import (
	"context"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
)

// RepeatWindow is how far back a submission counts as the one an element
// repeats: bulks whose execution started within it, and every bulk not yet
// executed. Older ones are history: a monthly payment of the same amount
// to the same account is not a repeat of last month's.
const RepeatWindow = 35 * 24 * time.Hour

// A RecordedBulk is a bulk of the API's record with the fingerprints of its
// operations.
type RecordedBulk struct {
	BulkID string `json:"bulkId"`
	// Kind is the kind its operation names, "" when none does.
	Kind           string         `json:"kind,omitempty"`
	Status         bulkapi.Status `json:"status"`
	ExecutionStart int64          `json:"executionStart,omitempty"`
	// Seen is when the bulk was first listed here: the list gives no
	// submission time.
	Seen time.Time `json:"seen"`
	// Fingerprints are its operations', FingerprintSize bytes each in
	// sequence order; zero bytes for an operation that has none.
	Fingerprints []byte `json:"fingerprints,omitempty"`
}

// When is the bulk's time for an operator: its execution start, else when
// it was first seen.
func (b *RecordedBulk) When() time.Time {
	if b.ExecutionStart > 0 {
		return time.UnixMilli(b.ExecutionStart)
	}
	return b.Seen
}

// Counts reports whether a listed bulk's operations may run, or have run,
// within the repeat window: every bulk not yet executed (SUBMITTED) and
// every bulk whose execution started in the last RepeatWindow. A bulk
// cancelled or failed before it started never ran anything.
func Counts(b *bulkapi.BulkProcess, now time.Time) bool {
	if b.ExecutionStart <= 0 {
		return b.Status == bulkapi.Submitted || b.Status == ""
	}
	return now.Sub(time.UnixMilli(b.ExecutionStart)) <= RepeatWindow
}

// A RecordCache keeps the fingerprints of the API's bulks between checks.
// A submitted bulk's operations never change, so a bulk is fetched once.
// Scope names the API (its base URL): bulk ids are the API's. A cache may
// be shared by several identities of one API (a server's): each check
// returns only the bulks its own listing shows, and a cache forgets only
// what it is told to.
type RecordCache interface {
	// Load returns the bulks kept for scope, by id.
	Load(ctx context.Context, scope string) (map[string]RecordedBulk, error)
	// Update keeps put, each replacing the bulk of its id, and forgets the
	// bulks named in drop.
	Update(ctx context.Context, scope string, put []RecordedBulk, drop []string) error
}

// UpdateBulks keeps put in bulks, each replacing the bulk of its id, and
// forgets the bulks named in drop, making bulks when nil: what a
// RecordCache's Update makes of what it keeps.
func UpdateBulks(bulks map[string]RecordedBulk, put []RecordedBulk, drop []string) map[string]RecordedBulk {
	if bulks == nil {
		bulks = make(map[string]RecordedBulk, len(put))
	}
	for _, id := range drop {
		delete(bulks, id)
	}
	for _, rb := range put {
		bulks[rb.BulkID] = rb
	}
	return bulks
}
