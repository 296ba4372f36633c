package postgres

import (
	"context"
	"fmt"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/jackc/pgx/v5"
)

// BulkRecord is the repeat check's record of the API's bulks in the
// database: a bulk's operations fetched through one server are not
// fetched again through another.
type BulkRecord struct{ db *DB }

// BulkRecord returns the database's record of bulks.
func (db *DB) BulkRecord() *BulkRecord { return &BulkRecord{db: db} }

var _ submission.RecordCache = (*BulkRecord)(nil)

// Load returns the bulks kept for scope.
func (r *BulkRecord) Load(ctx context.Context, scope string) (map[string]submission.RecordedBulk, error) {
	rows, err := r.db.pool.Query(ctx, `SELECT bulk_id, kind, status, execution_start, seen, fingerprints
		FROM bulk_record WHERE scope = $1`, scope)
	if err != nil {
		return nil, fmt.Errorf("reading the record of bulks from %s: %w", r.db.where, err)
	}
	out := make(map[string]submission.RecordedBulk)
	var rb submission.RecordedBulk
	var status string
	_, err = pgx.ForEachRow(rows, []any{&rb.BulkID, &rb.Kind, &status, &rb.ExecutionStart, &rb.Seen, &rb.Fingerprints}, func() error {
		b := rb
		b.Status, b.Seen = bulkapi.Status(status), rb.Seen.UTC()
		out[b.BulkID] = b
		rb.Fingerprints = nil // each row its own bytes
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the record of bulks from %s: %w", r.db.where, err)
	}
	return out, nil
}

// Update keeps put and forgets drop in one transaction. Two servers
// keeping the same bulk at once both succeed: the later row wins, and a
// bulk's fingerprints never change.
func (r *BulkRecord) Update(ctx context.Context, scope string, put []submission.RecordedBulk, drop []string) error {
	if len(put) == 0 && len(drop) == 0 {
		return nil
	}
	var batch pgx.Batch
	for _, rb := range put {
		fps := rb.Fingerprints
		if fps == nil {
			fps = []byte{}
		}
		batch.Queue(`INSERT INTO bulk_record (scope, bulk_id, kind, status, execution_start, seen, fingerprints)
			VALUES ($1, $2, $3, $4, $5, $6, $7)
			ON CONFLICT (scope, bulk_id) DO UPDATE SET kind = excluded.kind, status = excluded.status,
				execution_start = excluded.execution_start, seen = excluded.seen, fingerprints = excluded.fingerprints`,
			scope, rb.BulkID, rb.Kind, string(rb.Status), rb.ExecutionStart, rb.Seen, fps)
	}
	if len(drop) > 0 {
		batch.Queue(`DELETE FROM bulk_record WHERE scope = $1 AND bulk_id = ANY($2)`, scope, drop)
	}
	err := pgx.BeginFunc(ctx, r.db.pool, func(tx pgx.Tx) error {
		return tx.SendBatch(ctx, &batch).Close()
	})
	if err != nil {
		return fmt.Errorf("keeping the record of bulks in %s: %w", r.db.where, err)
	}
	return nil
}
