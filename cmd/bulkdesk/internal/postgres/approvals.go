package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
	"github.com/jackc/pgx/v5"
)

// Approvals are the four-eyes records in the database, shared by every
// server that opens it.
type Approvals struct{ db *DB }

// Approvals returns the database's four-eyes records.
func (db *DB) Approvals() *Approvals { return &Approvals{db: db} }

var _ approvals.Records = (*Approvals)(nil)

// recordColumns are the columns of a record, as scanRecord reads them:
// never its receipt, which only Receipt reads.
const recordColumns = `bulk_id, api, submitted_by, submitted_at, kind, file_name, elements, totals,
	executed_by, executed_at, cancelled_by, cancelled_at, coalesce(api_status, '')`

// Put stores r, and its receipt, unless its bulk already has a record;
// two servers putting the same bulk at once store it once (the primary
// key decides), with the receipt of the one that stored it.
func (a *Approvals) Put(r approvals.Record) (bool, error) {
	if r.BulkID == "" || r.SubmittedBy == "" {
		return false, errors.New("a four-eyes record needs a bulk id and a user")
	}
	var totals, receipt []byte
	var err error
	if r.Totals != nil {
		if totals, err = json.Marshal(r.Totals); err != nil {
			return false, fmt.Errorf("writing the totals of bulk %s: %w", r.BulkID, err)
		}
	}
	if r.Receipt != nil {
		if receipt, err = json.Marshal(r.Receipt); err != nil {
			return false, fmt.Errorf("writing the receipt of bulk %s: %w", r.BulkID, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	tag, err := a.db.pool.Exec(ctx, `INSERT INTO four_eyes (bulk_id, api, submitted_by, submitted_at, kind, file_name, elements, totals, receipt)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (bulk_id) DO NOTHING`,
		r.BulkID, r.API, r.SubmittedBy, r.SubmittedAt, r.Kind, r.FileName, r.Elements, totals, receipt)
	if err != nil {
		return false, fmt.Errorf("recording who submitted bulk %s in %s: %w", r.BulkID, a.db.where, err)
	}
	return tag.RowsAffected() == 1, nil
}

// Get returns a bulk's record, and false when there is none.
func (a *Approvals) Get(bulkID string) (approvals.Record, bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	r, err := scanRecord(a.db.pool.QueryRow(ctx, `SELECT `+recordColumns+` FROM four_eyes WHERE bulk_id = $1`, bulkID))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return approvals.Record{}, false, nil
	case err != nil:
		return approvals.Record{}, false, fmt.Errorf("reading who submitted bulk %s from %s: %w", bulkID, a.db.where, err)
	}
	return r, true, nil
}

// scanRecord reads the recordColumns of one row.
func scanRecord(row pgx.Row) (approvals.Record, error) {
	var r approvals.Record
	var totals []byte
	var executedBy, cancelledBy *string
	var executedAt, cancelledAt *time.Time
	if err := row.Scan(&r.BulkID, &r.API, &r.SubmittedBy, &r.SubmittedAt, &r.Kind, &r.FileName, &r.Elements, &totals,
		&executedBy, &executedAt, &cancelledBy, &cancelledAt, &r.APIStatus); err != nil {
		return approvals.Record{}, err
	}
	if totals != nil {
		if err := json.Unmarshal(totals, &r.Totals); err != nil {
			return approvals.Record{}, fmt.Errorf("the totals of bulk %s: %w", r.BulkID, err)
		}
	}
	r.SubmittedAt = r.SubmittedAt.UTC()
	if executedBy != nil && executedAt != nil {
		at := executedAt.UTC()
		r.ExecutedBy, r.ExecutedAt = *executedBy, &at
	}
	if cancelledBy != nil && cancelledAt != nil {
		at := cancelledAt.UTC()
		r.CancelledBy, r.CancelledAt = *cancelledBy, &at
	}
	return r, nil
}

// Receipt returns the receipt kept with a bulk's record, and false when
// there is none.
func (a *Approvals) Receipt(bulkID string) (*bulkreview.Receipt, bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var data []byte
	err := a.db.pool.QueryRow(ctx, `SELECT receipt FROM four_eyes WHERE bulk_id = $1`, bulkID).Scan(&data)
	switch {
	case errors.Is(err, pgx.ErrNoRows), err == nil && data == nil:
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("reading the receipt of bulk %s from %s: %w", bulkID, a.db.where, err)
	}
	rc := new(bulkreview.Receipt)
	if err := json.Unmarshal(data, rc); err != nil {
		return nil, false, fmt.Errorf("reading the receipt of bulk %s from %s: %w", bulkID, a.db.where, err)
	}
	return rc, true, nil
}

// Executed records user's execution of a recorded bulk that has none yet.
func (a *Approvals) Executed(bulkID, user string, at time.Time) error {
	return a.settle(bulkID, "executed", user, at)
}

// Cancelled records user's cancellation of a recorded bulk that has none
// yet.
func (a *Approvals) Cancelled(bulkID, user string, at time.Time) error {
	return a.settle(bulkID, "cancelled", user, at)
}

// Settled records the API's state of a recorded bulk awaiting a second
// operator, when it is no longer SUBMITTED.
func (a *Approvals) Settled(bulkID string, apiStatus bulkapi.Status) error {
	if apiStatus == bulkapi.Submitted || apiStatus == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, err := a.db.pool.Exec(ctx, `UPDATE four_eyes SET api_status = $2
		WHERE bulk_id = $1 AND executed_by IS NULL AND cancelled_by IS NULL AND api_status IS NULL`, bulkID, string(apiStatus))
	if err != nil {
		return fmt.Errorf("recording the API's state of bulk %s in %s: %w", bulkID, a.db.where, err)
	}
	return nil
}

// settle records, in the columns what_by and what_at, that user executed
// or cancelled a recorded bulk (what), unless someone already did.
func (a *Approvals) settle(bulkID, what, user string, at time.Time) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, err := a.db.pool.Exec(ctx, fmt.Sprintf(`UPDATE four_eyes SET %[1]s_by = $2, %[1]s_at = $3
		WHERE bulk_id = $1 AND %[1]s_by IS NULL`, what), bulkID, user, at)
	if err != nil {
		return fmt.Errorf("recording who %s bulk %s in %s: %w", what, bulkID, a.db.where, err)
	}
	return nil
}
