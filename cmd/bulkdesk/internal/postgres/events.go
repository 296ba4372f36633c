package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

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

// Store stores an event once: a key already stored answers the number of
// the event stored under it. Two servers storing one event at once store
// it once.
func (e *Events) Store(ctx context.Context, key, typ string, event []byte) (uint64, bool, error) {
	tx, err := e.db.pool.Begin(ctx)
	if err != nil {
		return 0, false, fmt.Errorf("storing an event in %s: %w", e.db.where, err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, eventsLock); err != nil {
		return 0, false, err
	}
	var seq int64
	err = tx.QueryRow(ctx, `SELECT seq FROM events WHERE dup_key = $1`, []byte(key)).Scan(&seq)
	switch {
	case err == nil:
		return uint64(seq), true, nil
	case !errors.Is(err, pgx.ErrNoRows):
		return 0, false, err
	}
	if err := tx.QueryRow(ctx, `INSERT INTO events (seq, dup_key, type, event)
		VALUES (nextval('events_seq'), $1, $2, $3) RETURNING seq`, []byte(key), typ, event).Scan(&seq); err != nil {
		return 0, false, fmt.Errorf("storing an event in %s: %w", e.db.where, err)
	}
	if _, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, eventsChannel, strconv.FormatInt(seq, 10)); err != nil {
		return 0, false, err
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, false, fmt.Errorf("storing an event in %s: %w", e.db.where, err)
	}
	return uint64(seq), false, nil
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

// Follow calls publish with every event stored after seq, in order: told
// by a notification, or at the latest after the poll interval; a lost
// connection is replaced, with a growing pause, until ctx ends.
func (e *Events) Follow(ctx context.Context, after uint64, publish func(receiver.SharedEvent)) error {
	pause := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := e.follow(ctx, &after, publish)
		if ctx.Err() != nil {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(pause):
		}
		pause = min(2*pause, 5*time.Second)
		if err == nil {
			pause = 100 * time.Millisecond
		}
	}
	return nil
}

// follow listens on one connection until it fails or ctx ends.
func (e *Events) follow(ctx context.Context, after *uint64, publish func(receiver.SharedEvent)) error {
	conn, err := e.db.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	// The connection listened on: it goes back to the pool closed, not
	// listening.
	defer conn.Release()
	defer conn.Conn().Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+eventsChannel); err != nil {
		return err
	}
	for {
		rows, err := conn.Query(ctx, `SELECT seq, type, event FROM events WHERE seq > $1 ORDER BY seq LIMIT 1000`, int64(*after))
		if err != nil {
			return err
		}
		evs, err := collect(rows)
		if err != nil {
			return err
		}
		for _, ev := range evs {
			publish(ev)
			*after = ev.Seq
		}
		if len(evs) == 1000 {
			continue
		}
		wait, cancel := context.WithTimeout(ctx, e.poll)
		_, err = conn.Conn().WaitForNotification(wait)
		cancel()
		if err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
	}
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
