package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
)

// BeginFlight keeps f until EndFlight or f.Until, for every server on the
// database, and drops the flights that lapsed before f.Since: those a
// stopped server left.
func (a *Approvals) BeginFlight(f approvals.InFlight) error {
	if f.ID == "" || f.User == "" {
		return errors.New("a call in flight needs an id and a user")
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, err := a.db.pool.Exec(ctx, `WITH lapsed AS (DELETE FROM four_eyes_in_flight WHERE until <= $5)
		INSERT INTO four_eyes_in_flight (id, operator, api, bulk_id, since, until) VALUES ($1, $2, $3, $4, $5, $6)`,
		f.ID, f.User, f.API, f.BulkID, f.Since, f.Until)
	if err != nil {
		return fmt.Errorf("recording %s's call in flight in %s: %w", f.User, a.db.where, err)
	}
	return nil
}

// EndFlight forgets the flight id names.
func (a *Approvals) EndFlight(id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if _, err := a.db.pool.Exec(ctx, `DELETE FROM four_eyes_in_flight WHERE id = $1`, id); err != nil {
		return fmt.Errorf("ending a call in flight in %s: %w", a.db.where, err)
	}
	return nil
}

// Flights returns the flights whose Until is after at.
func (a *Approvals) Flights(at time.Time) ([]approvals.InFlight, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	rows, err := a.db.pool.Query(ctx, `SELECT id, operator, api, bulk_id, since, until
		FROM four_eyes_in_flight WHERE until > $1 ORDER BY since`, at)
	if err != nil {
		return nil, fmt.Errorf("reading the calls in flight from %s: %w", a.db.where, err)
	}
	defer rows.Close()
	var out []approvals.InFlight
	for rows.Next() {
		var f approvals.InFlight
		if err := rows.Scan(&f.ID, &f.User, &f.API, &f.BulkID, &f.Since, &f.Until); err != nil {
			return nil, fmt.Errorf("reading the calls in flight from %s: %w", a.db.where, err)
		}
		f.Since, f.Until = f.Since.UTC(), f.Until.UTC()
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading the calls in flight from %s: %w", a.db.where, err)
	}
	return out, nil
}
