//go:build !js

package postgres_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals/recordstest"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/pgtest"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/postgres"
)

// TestTheDatabaseKeepsRecords runs the records' suite on the shared
// database, each subtest in a database of its own.
func TestTheDatabaseKeepsRecords(t *testing.T) {
	dsn := pgtest.Start(t)
	n := 0
	recordstest.Run(t, func(t *testing.T) approvals.Records {
		n++
		return open(t, pgtest.NewDatabase(t, dsn, fmt.Sprint("records_", n))).Approvals()
	})
}

// TestServersStartingTogetherMigrateOnce: several servers bring one empty
// database up to date at the same moment; each step is applied once.
func TestServersStartingTogetherMigrateOnce(t *testing.T) {
	dsn := pgtest.NewDatabase(t, pgtest.Start(t), "together")
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			db, err := postgres.Open(context.Background(), dsn, 10*time.Second)
			if err == nil {
				db.Close()
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	db := open(t, dsn)
	if _, err := db.Approvals().Put(approvals.Record{BulkID: "1", SubmittedBy: "alice"}); err != nil {
		t.Error(err)
	}
}

// TestAnUnreachableDatabaseIsNamedWithoutItsPassword.
func TestAnUnreachableDatabaseIsNamedWithoutItsPassword(t *testing.T) {
	_, err := postgres.Open(context.Background(), "postgres://bulkdesk:s3cret@127.0.0.1:1/ops?sslmode=disable", 300*time.Millisecond)
	if err == nil {
		t.Fatal("opened a database that is not there")
	}
	msg := err.Error()
	if !strings.Contains(msg, "127.0.0.1:1/ops") || !strings.Contains(msg, "does not answer") || strings.Contains(msg, "s3cret") {
		t.Errorf("the error reads %q", msg)
	}
	if _, err := postgres.Open(context.Background(), "postgres://bulkdesk:s3cret@[::1/ops", time.Second); err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("a malformed string: %v", err)
	}
}

func open(t *testing.T, dsn string) *postgres.DB {
	t.Helper()
	db, err := postgres.Open(context.Background(), dsn, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
