package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/backoff"
	"github.com/jackc/pgx/v5/pgxpool"
)

// DB is a pool of connections to the shared database.
type DB struct {
	pool  *pgxpool.Pool
	where string
	// ready is set once the database answered and its tables are up to
	// date (Ready).
	ready atomic.Bool
}

// Connect prepares the pool of connections to the database dsn names,
// without connecting yet: Ready waits for it.
func Connect(dsn string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// The parser's message may quote the string, password included.
		return nil, errors.New("-store: not a PostgreSQL connection string (postgres://user@host:port/database)")
	}
	where := fmt.Sprintf("%s:%d/%s", cfg.ConnConfig.Host, cfg.ConnConfig.Port, cfg.ConnConfig.Database)
	cfg.ConnConfig.ConnectTimeout = 5 * time.Second
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		return nil, fmt.Errorf("the database at %s: %w", where, err)
	}
	return &DB{pool: pool, where: where}, nil
}

// Open connects to the database dsn names and brings its tables up to
// date, waiting up to wait for a database that does not answer yet.
func Open(ctx context.Context, dsn string, wait time.Duration) (*DB, error) {
	db, err := Connect(dsn)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	if err := db.Ready(ctx, nil); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// Ready waits until the database answers and brings its tables up to
// date, trying again with a growing pause (up to 5 s) and telling
// waiting, when not nil, of each failure. It returns ctx's error, with the
// last failure, if ctx ends first.
func (db *DB) Ready(ctx context.Context, waiting func(error)) error {
	var pause backoff.Pause
	for {
		err := db.Ping(ctx)
		if err == nil {
			if err = db.migrate(ctx); err == nil {
				db.ready.Store(true)
				return nil
			}
			err = fmt.Errorf("bringing the tables of %s up to date: %w", db.where, err)
		}
		if waiting != nil {
			waiting(err)
		}
		if !pause.Wait(ctx) {
			return fmt.Errorf("waiting for the database at %s: %w", db.where, err)
		}
	}
}

// Health says whether the server can rely on the database now: ready and
// answering. /healthz reports it.
func (db *DB) Health(ctx context.Context) error {
	if !db.ready.Load() {
		return fmt.Errorf("the database at %s is not ready yet", db.where)
	}
	return db.Ping(ctx)
}

// Ping says whether the database answers, for /healthz.
func (db *DB) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := db.pool.Ping(ctx); err != nil {
		return fmt.Errorf("the database at %s does not answer: %w", db.where, errors.Unwrap(err))
	}
	return nil
}

// Where names the database without its credentials: host:port/database.
func (db *DB) Where() string { return db.where }

// Close closes the pool's connections.
func (db *DB) Close() error {
	db.pool.Close()
	return nil
}

// timeout bounds one statement of a caller that has no context.
const timeout = 10 * time.Second
