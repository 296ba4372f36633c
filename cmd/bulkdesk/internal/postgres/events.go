package postgres

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/backoff"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/receiver"
	"github.com/jackc/pgx/v5"
)

// Events are the accepted webhook events in the database, shared by the
// receivers of every server that opens it.
type Events struct {
	db *DB
	// poll is how often a follower reads new events without being told:
	// a notification sent while its connection was being replaced is
	// not lost for longer than this.
	poll time.Duration
}

// eventsChannel is the channel a stored event is announced on.
const eventsChannel = "bulkdesk_events"

// eventsLock serialises the numbering: an event's number is taken and
// committed under it, so that numbers become visible in their order and a
// follower reading "after N" never skips one committed late. (A number
// taken by a transaction that fails is never used: followers do not
// expect numbers without gaps.)
const eventsLock = 0x65766e74 // "evnt"

// Events returns the database's events.
func (db *DB) Events() *Events { return &Events{db: db, poll: time.Second} }

var _ receiver.Shared = (*Events)(nil)

// ID names the database's numbering of events.
func (e *Events) ID(ctx context.Context) (string, error) {
	var id string
	if err := e.db.pool.QueryRow(ctx, `SELECT id FROM bulkdesk_receiver`).Scan(&id); err != nil {
		return "", fmt.Errorf("reading the events' numbering from %s: %w", e.db.where, err)
	}
	return id, nil
}

// Store stores events once each, in one transaction: a key already
// stored, or met earlier in events, answers the number of the event
// stored under it. Two servers storing one event at once store it once.
func (e *Events) Store(ctx context.Context, events []receiver.PendingEvent) ([]receiver.StoredEvent, error) {
	out, err := e.store(ctx, events)
	if err != nil {
		return nil, fmt.Errorf("storing %d events in %s: %w", len(events), e.db.where, err)
	}
	return out, nil
}

func (e *Events) store(ctx context.Context, events []receiver.PendingEvent) ([]receiver.StoredEvent, error) {
	tx, err := e.db.pool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, eventsLock); err != nil {
		return nil, err
	}
	keys := make([][]byte, len(events))
	for i, ev := range events {
		keys[i] = []byte(ev.Key)
	}
	rows, err := tx.Query(ctx, `SELECT dup_key, seq FROM events WHERE dup_key = ANY($1)`, keys)
	if err != nil {
		return nil, err
	}
	known := make(map[string]uint64)
	var key []byte
	var seq int64
	if _, err := pgx.ForEachRow(rows, []any{&key, &seq}, func() error {
		known[string(key)] = uint64(seq)
		return nil
	}); err != nil {
		return nil, err
	}
	out := make([]receiver.StoredEvent, len(events))
	var batch pgx.Batch
	var fresh []int // indexes of the events inserted, in order
	for i, ev := range events {
		if s, ok := known[ev.Key]; ok {
			out[i] = receiver.StoredEvent{Seq: s, Duplicate: true}
			continue
		}
		known[ev.Key] = 0 // numbered below; a later copy points to it
		fresh = append(fresh, i)
		batch.Queue(`INSERT INTO events (seq, dup_key, type, event)
			VALUES (nextval('events_seq'), $1, $2, $3) RETURNING seq`, []byte(ev.Key), ev.Type, ev.Event)
	}
	if len(fresh) > 0 {
		br := tx.SendBatch(ctx, &batch)
		for _, i := range fresh {
			if err := br.QueryRow().Scan(&seq); err != nil {
				br.Close()
				return nil, err
			}
			out[i] = receiver.StoredEvent{Seq: uint64(seq)}
			known[events[i].Key] = uint64(seq)
		}
		if err := br.Close(); err != nil {
			return nil, err
		}
		// One notice for the batch: a follower reads every event after
		// the last it has.
		if _, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, eventsChannel, strconv.FormatInt(seq, 10)); err != nil {
			return nil, err
		}
	}
	for i := range out {
		if out[i].Duplicate && out[i].Seq == 0 {
			out[i].Seq = known[events[i].Key] // a copy of an event of this batch
		}
	}
	return out, tx.Commit(ctx)
}

// Prune removes the events stored before a time.
func (e *Events) Prune(ctx context.Context, before time.Time) (int64, error) {
	tag, err := e.db.pool.Exec(ctx, `DELETE FROM events WHERE stored_at < $1`, before)
	if err != nil {
		return 0, fmt.Errorf("removing old events from %s: %w", e.db.where, err)
	}
	return tag.RowsAffected(), nil
}

// Recent returns the newest n events, oldest first.
func (e *Events) Recent(ctx context.Context, n int) ([]receiver.SharedEvent, error) {
	rows, err := e.db.pool.Query(ctx, `SELECT seq, type, event FROM
		(SELECT seq, type, event FROM events ORDER BY seq DESC LIMIT $1) newest ORDER BY seq`, n)
	if err != nil {
		return nil, err
	}
	return collect(rows)
}

// Older returns up to n events numbered below before, newest first, of
// the given types (all when none).
func (e *Events) Older(ctx context.Context, before uint64, types []string, n int) ([]receiver.SharedEvent, error) {
	rows, err := e.db.pool.Query(ctx, `SELECT seq, type, event FROM events
		WHERE seq < $1 AND (cardinality($2::text[]) = 0 OR type = ANY($2))
		ORDER BY seq DESC LIMIT $3`, int64(min(before, math.MaxInt64)), append([]string{}, types...), n)
	if err != nil {
		return nil, fmt.Errorf("reading older events from %s: %w", e.db.where, err)
	}
	return collect(rows)
}

// followTimeout bounds each read of a follower, its connection and its
// LISTEN included: a database that does not answer within it counts as
// lost, so that the receiver answers 503 rather than from a ring that
// falls behind.
const followTimeout = 5 * time.Second

// Follow calls publish with every event stored after seq, in order: told
// by a notification, or at the latest after the poll interval; a lost
// connection is replaced, with a growing pause, until ctx ends. It tells
// status nil after each read that brought it up to date, and the error
// when it loses the database (within followTimeout of its last answer).
func (e *Events) Follow(ctx context.Context, after uint64, publish func(receiver.SharedEvent), status func(error)) error {
	var pause backoff.Pause
	for {
		inStep, err := e.follow(ctx, &after, publish, status)
		if ctx.Err() != nil {
			return nil
		}
		status(fmt.Errorf("following the events of %s: %w", e.db.where, err))
		if inStep {
			pause.Reset() // it followed for a while: reconnect soon
		}
		if !pause.Wait(ctx) {
			return nil
		}
	}
}

// follow listens on one connection until it fails or ctx ends; it says
// whether it was ever in step.
func (e *Events) follow(ctx context.Context, after *uint64, publish func(receiver.SharedEvent), status func(error)) (inStep bool, err error) {
	start, cancel := context.WithTimeout(ctx, followTimeout)
	defer cancel()
	conn, err := e.db.pool.Acquire(start)
	if err != nil {
		return false, err
	}
	// The connection listened on: it goes back to the pool closed, not
	// listening.
	defer conn.Release()
	defer conn.Conn().Close(context.Background())
	if _, err := conn.Exec(start, "LISTEN "+eventsChannel); err != nil {
		return false, err
	}
	for {
		evs, err := e.newer(ctx, conn.Conn(), *after)
		if err != nil {
			return inStep, err
		}
		for _, ev := range evs {
			publish(ev)
			*after = ev.Seq
		}
		if len(evs) == followBatch {
			continue
		}
		status(nil)
		inStep = true
		wait, cancel := context.WithTimeout(ctx, e.poll)
		_, err = conn.Conn().WaitForNotification(wait)
		cancel()
		if err != nil && ctx.Err() != nil {
			return inStep, ctx.Err()
		}
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return inStep, err
		}
	}
}

// followBatch is the most events a follower reads at once.
const followBatch = 1000

// newer reads up to followBatch events stored after seq, oldest first,
// within followTimeout.
func (e *Events) newer(ctx context.Context, conn *pgx.Conn, seq uint64) ([]receiver.SharedEvent, error) {
	ctx, cancel := context.WithTimeout(ctx, followTimeout)
	defer cancel()
	rows, err := conn.Query(ctx, `SELECT seq, type, event FROM events WHERE seq > $1 ORDER BY seq LIMIT $2`, int64(seq), followBatch)
	if err != nil {
		return nil, err
	}
	return collect(rows)
}

func collect(rows pgx.Rows) ([]receiver.SharedEvent, error) {
	defer rows.Close()
	var out []receiver.SharedEvent
	for rows.Next() {
		var ev receiver.SharedEvent
		var seq int64
		if err := rows.Scan(&seq, &ev.Type, &ev.Event); err != nil {
			return nil, err
		}
		ev.Seq = uint64(seq)
		out = append(out, ev)
	}
	return out, rows.Err()
}
