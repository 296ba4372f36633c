package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// DB is a pool of connections to the shared database.
type DB struct {
	pool  *pgxpool.Pool
	where string
}

// Open connects to the database dsn names and brings its tables up to
// date. It tries again with a growing pause (up to wait in all) while the
// database does not answer, so that servers started before their
// database come up once it does.
func Open(ctx context.Context, dsn string, wait time.Duration) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// The parser's message may quote the string, password included.
		return nil, errors.New("-store: not a PostgreSQL connection string (postgres://user@host:port/database)")
	}
	where := fmt.Sprintf("%s:%d/%s", cfg.ConnConfig.Host, cfg.ConnConfig.Port, cfg.ConnConfig.Database)
	cfg.ConnConfig.ConnectTimeout = 5 * time.Second
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("the database at %s: %w", where, err)
	}
	db := &DB{pool: pool, where: where}
	deadline := time.Now().Add(wait)
	pause := 100 * time.Millisecond
	for {
		err = db.Ping(ctx)
		if err == nil || time.Now().Add(pause).After(deadline) {
			break
		}
		select {
		case <-ctx.Done():
			pool.Close()
			return nil, fmt.Errorf("waiting for the database at %s: %w", where, ctx.Err())
		case <-time.After(pause):
		}
		pause = min(2*pause, 5*time.Second)
	}
	if err != nil {
		pool.Close()
		return nil, err
	}
	if err := db.migrate(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("bringing the tables of %s up to date: %w", where, err)
	}
	return db, nil
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
