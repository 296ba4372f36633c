//go:build !js

package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/pgtest"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/postgres"
	"github.com/jackc/pgx/v5"
)

// TestRecordsOfAnEarlierServerAwaitAfterTheUpgrade: a database a server
// of step 8 wrote (no receipts, no queue) is brought up to date, and its
// bulks not yet executed are in the approval queue, without a receipt.
func TestRecordsOfAnEarlierServerAwaitAfterTheUpgrade(t *testing.T) {
	dsn := pgtest.NewDatabase(t, pgtest.Start(t), "upgrade")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	at := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	stmts := []string{`CREATE TABLE bulkdesk_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`}
	stmts = append(stmts, postgres.EarlierSteps(8)...)
	stmts = append(stmts, `INSERT INTO bulkdesk_migrations (version) SELECT generate_series(1, 8)`)
	for _, stmt := range stmts {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	for i, id := range []string{"1", "2", "3"} {
		if _, err := conn.Exec(ctx, `INSERT INTO four_eyes (bulk_id, api, submitted_by, submitted_at) VALUES ($1, 'standard', 'alice', $2)`, id, at.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := conn.Exec(ctx, `UPDATE four_eyes SET executed_by = 'bob', executed_at = $1 WHERE bulk_id = '2'`, at); err != nil {
		t.Fatal(err)
	}

	a := open(t, dsn).Approvals()
	recs, err := a.Awaiting(approvals.Page{Limit: 10})
	if err != nil || len(recs) != 2 || recs[0].BulkID != "3" || recs[1].BulkID != "1" || recs[0].Kind != "" || recs[0].Totals != nil {
		t.Fatalf("awaiting after the upgrade: %+v, %v", recs, err)
	}
	if r, found, err := a.Get("2"); err != nil || !found || r.State() != approvals.StateExecuted || r.SubmittedBy != "alice" {
		t.Errorf("the executed bulk: %+v, %v, %v", r, found, err)
	}
	if rc, found, err := a.Receipt("1"); err != nil || found {
		t.Errorf("a receipt of an earlier record: %+v, %v", rc, err)
	}
}
