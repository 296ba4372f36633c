package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
	"github.com/jackc/pgx/v5"
)

// Awaiting returns the records of p.Scope awaiting a second operator,
// newest first, from p's cursor on, at most p.Limit: a walk of the
// partial index four_eyes_awaiting. Bulk ids compare byte by byte
// (COLLATE "C"), as the file of a single server orders them.
func (a *Approvals) Awaiting(p approvals.Page) ([]approvals.Record, error) {
	if p.Limit < 1 {
		return nil, errors.New("a page of the queue needs a limit")
	}
	where := []string{`executed_by IS NULL`, `cancelled_by IS NULL`, `api_status IS NULL`}
	args := []any{p.Limit}
	if p.Scope == "" {
		where = append(where, `strpos(bulk_id, '/') = 0`)
	} else {
		args = append(args, p.Scope+"/")
		where = append(where, fmt.Sprintf(`left(bulk_id, length($%d)) = $%[1]d`, len(args)))
	}
	if !p.Before.IsZero() {
		args = append(args, p.Before, p.BeforeID)
		where = append(where, fmt.Sprintf(`(submitted_at < $%d OR submitted_at = $%[1]d AND bulk_id COLLATE "C" < $%d)`, len(args)-1, len(args)))
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	rows, err := a.db.pool.Query(ctx, `SELECT `+recordColumns+` FROM four_eyes WHERE `+strings.Join(where, " AND ")+`
		ORDER BY submitted_at DESC, bulk_id COLLATE "C" DESC LIMIT $1`, args...)
	if err != nil {
		return nil, fmt.Errorf("reading the bulks awaiting a second operator from %s: %w", a.db.where, err)
	}
	recs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (approvals.Record, error) { return scanRecord(row) })
	if err != nil {
		return nil, fmt.Errorf("reading the bulks awaiting a second operator from %s: %w", a.db.where, err)
	}
	return recs, nil
}
