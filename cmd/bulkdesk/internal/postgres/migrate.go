package postgres

import (
	"context"
	"fmt"
)

// migrations are the steps that bring an empty database to this binary's
// tables, in order; step i+1 is version i+1. A released step never
// changes: a change is a new step.
var migrations = []string{
	// 1: the four-eyes record.
	`CREATE TABLE four_eyes (
		bulk_id      text PRIMARY KEY,
		api          text NOT NULL,
		submitted_by text NOT NULL,
		submitted_at timestamptz NOT NULL,
		executed_by  text,
		executed_at  timestamptz
	)`,
	// 2: accepted webhook events, numbered in the order they were stored,
	// each once (its duplicate key), and the numbering's name.
	`CREATE TABLE events (
		seq         bigint PRIMARY KEY,
		dup_key     bytea NOT NULL UNIQUE,
		type        text NOT NULL,
		event       bytea NOT NULL,
		stored_at   timestamptz NOT NULL DEFAULT now()
	)`,
	`CREATE TABLE bulkdesk_receiver (id text NOT NULL)`,
	`INSERT INTO bulkdesk_receiver (id) VALUES (md5(random()::text || clock_timestamp()::text))`,
	// 5: events are numbered by a sequence, which never gives a number
	// twice, even once the events that had the highest are removed.
	`CREATE SEQUENCE events_seq`,
	`SELECT setval('events_seq', coalesce((SELECT max(seq) FROM events), 0) + 1, false)`,
	// 7: the repeat check's record of the API's bulks: each bulk's state
	// and the fingerprints of its operations, by API (scope).
	`CREATE TABLE bulk_record (
		scope           text NOT NULL,
		bulk_id         text NOT NULL,
		kind            text NOT NULL,
		status          text NOT NULL,
		execution_start bigint NOT NULL,
		seen            timestamptz NOT NULL,
		fingerprints    bytea NOT NULL,
		PRIMARY KEY (scope, bulk_id)
	)`,
	// 8: the four-eyes calls on their way to the API (submissions, and
	// executions of bulks the record does not know, which name bulk_id),
	// each until it is answered or lapses.
	`CREATE TABLE four_eyes_in_flight (
		id        text PRIMARY KEY,
		operator  text NOT NULL,
		api       text NOT NULL,
		bulk_id   text NOT NULL,
		since     timestamptz NOT NULL,
		until     timestamptz NOT NULL
	)`,
	// 9: what the four-eyes record keeps of each submission beyond its
	// maker: its kind and file, the count and totals the approval queue
	// lists, the maker's receipt the server computed, who cancelled the
	// bulk, and the API's state of a bulk executed or cancelled around
	// the server.
	`ALTER TABLE four_eyes
		ADD COLUMN kind         text NOT NULL DEFAULT '',
		ADD COLUMN file_name    text NOT NULL DEFAULT '',
		ADD COLUMN elements     integer NOT NULL DEFAULT 0,
		ADD COLUMN totals       jsonb,
		ADD COLUMN receipt      jsonb,
		ADD COLUMN cancelled_by text,
		ADD COLUMN cancelled_at timestamptz,
		ADD COLUMN api_status   text`,
	// 10: the approval queue, newest first, reads only the bulks that
	// await a second operator.
	`CREATE INDEX four_eyes_awaiting ON four_eyes (submitted_at DESC, bulk_id COLLATE "C" DESC)
		WHERE executed_by IS NULL AND cancelled_by IS NULL AND api_status IS NULL`,
}

// migrationLock is the advisory lock that lets one server at a time bring
// the tables up to date.
const migrationLock = 0x62756c6b // "bulk"

// migrate applies the steps the database has not had yet. A database
// newer than this binary is refused: its tables may mean something this
// binary does not know.
func (db *DB) migrate(ctx context.Context) error {
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrationLock); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS bulkdesk_migrations (
		version    integer PRIMARY KEY,
		applied_at timestamptz NOT NULL DEFAULT now()
	)`); err != nil {
		return err
	}
	var have int
	if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM bulkdesk_migrations`).Scan(&have); err != nil {
		return err
	}
	if have > len(migrations) {
		return fmt.Errorf("the database is at version %d, newer than this bulkdesk knows (%d): run a newer bulkdesk", have, len(migrations))
	}
	for v := have + 1; v <= len(migrations); v++ {
		if _, err := tx.Exec(ctx, migrations[v-1]); err != nil {
			return fmt.Errorf("step %d: %w", v, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO bulkdesk_migrations (version) VALUES ($1)`, v); err != nil {
			return err
		}
	}
	return tx.Commit(ctx)
}
