package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
	"github.com/jackc/pgx/v5"
)

// Approvals are the four-eyes records in the database, shared by every
// server that opens it.
type Approvals struct{ db *DB }

// Approvals returns the database's four-eyes records.
func (db *DB) Approvals() *Approvals { return &Approvals{db: db} }

var _ approvals.Records = (*Approvals)(nil)

// Put stores r unless its bulk already has a record; two servers putting
// the same bulk at once store it once (the primary key decides).
func (a *Approvals) Put(r approvals.Record) (bool, error) {
	if r.BulkID == "" || r.SubmittedBy == "" {
		return false, errors.New("a four-eyes record needs a bulk id and a user")
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	tag, err := a.db.pool.Exec(ctx, `INSERT INTO four_eyes (bulk_id, api, submitted_by, submitted_at)
		VALUES ($1, $2, $3, $4) ON CONFLICT (bulk_id) DO NOTHING`, r.BulkID, r.API, r.SubmittedBy, r.SubmittedAt)
	if err != nil {
		return false, fmt.Errorf("recording who submitted bulk %s in %s: %w", r.BulkID, a.db.where, err)
	}
	return tag.RowsAffected() == 1, nil
}

// Get returns a bulk's record, and false when there is none.
func (a *Approvals) Get(bulkID string) (approvals.Record, bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	r := approvals.Record{BulkID: bulkID}
	var executedBy *string
	var executedAt *time.Time
	err := a.db.pool.QueryRow(ctx, `SELECT api, submitted_by, submitted_at, executed_by, executed_at
		FROM four_eyes WHERE bulk_id = $1`, bulkID).Scan(&r.API, &r.SubmittedBy, &r.SubmittedAt, &executedBy, &executedAt)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return approvals.Record{}, false, nil
	case err != nil:
		return approvals.Record{}, false, fmt.Errorf("reading who submitted bulk %s from %s: %w", bulkID, a.db.where, err)
	}
	r.SubmittedAt = r.SubmittedAt.UTC()
	if executedBy != nil && executedAt != nil {
		at := executedAt.UTC()
		r.ExecutedBy, r.ExecutedAt = *executedBy, &at
	}
	return r, true, nil
}

// Executed records user's execution of a recorded bulk that has none yet.
func (a *Approvals) Executed(bulkID, user string, at time.Time) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, err := a.db.pool.Exec(ctx, `UPDATE four_eyes SET executed_by = $2, executed_at = $3
		WHERE bulk_id = $1 AND executed_by IS NULL`, bulkID, user, at)
	if err != nil {
		return fmt.Errorf("recording who executed bulk %s in %s: %w", bulkID, a.db.where, err)
	}
	return nil
}
