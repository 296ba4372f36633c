//go:build !js

// Package pgtest starts a throwaway PostgreSQL server for a test, from
// Debian's postgresql package: a new cluster in a temporary folder,
// listening on 127.0.0.1 only, stopped and removed when the test ends.
// Without the package a test skips, except under CI=true, where it fails:
// CI must run what the suite holds.
//
// PostgreSQL refuses to run as root; as root the cluster is made and run
// as the package's own postgres user.
package pgtest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// binDir returns the folder of initdb and pg_ctl, the newest version's
// when several are installed, or "".
func binDir() string {
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	sort.Slice(found, func(i, j int) bool {
		vi, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(found[i]))))
		vj, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(found[j]))))
		return vi > vj
	})
	if len(found) == 0 {
		return ""
	}
	return filepath.Dir(found[0])
}

// Start starts a cluster for tb and returns its connection string, for
// the database "postgres" as the superuser "postgres". It does not flush
// to disk (fsync off): tests of behaviour need not wait for the disk.
func Start(tb testing.TB) string {
	tb.Helper()
	c := New(tb, false)
	c.Start()
	return c.DSN()
}

// StartDurable is Start with every commit flushed to disk, as in
// production: for benchmarks of durable writes.
func StartDurable(tb testing.TB) string {
	tb.Helper()
	c := New(tb, true)
	c.Start()
	return c.DSN()
}

// A Cluster is a cluster made for a test, started when the test says:
// a server can be started before its database.
type Cluster struct {
	tb      testing.TB
	bin     string
	data    string
	port    int
	durable bool
	asUser  []string
}

// New makes a cluster for tb, not started yet; it is stopped and removed
// when tb ends.
func New(tb testing.TB, durable bool) *Cluster {
	tb.Helper()
	bin := binDir()
	if bin == "" {
		if os.Getenv("CI") == "true" {
			tb.Fatal("no PostgreSQL in /usr/lib/postgresql: install Debian's postgresql package (.ci/run does)")
		}
		tb.Skip("no PostgreSQL in /usr/lib/postgresql: install Debian's postgresql package to run this test")
	}
	dir, err := os.MkdirTemp("", "bulkdesk-pg-")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	c := &Cluster{tb: tb, bin: bin, data: filepath.Join(dir, "data"), durable: durable}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			tb.Fatalf("running as root, PostgreSQL needs its postgres user: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			tb.Fatal(err)
		}
		c.asUser = []string{"runuser", "-u", "postgres", "--"}
	}
	c.run(2*time.Minute, filepath.Join(bin, "initdb"), "-D", c.data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync")
	c.port = freePort(tb)
	return c
}

// DSN is the cluster's connection string, for the database "postgres" as
// the superuser "postgres".
func (c *Cluster) DSN() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.port)
}

// Start starts the cluster and waits until it takes connections.
func (c *Cluster) Start() {
	c.tb.Helper()
	// The socket goes in the cluster's own folder: /run/postgresql may
	// not exist on a machine where the server never ran.
	opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -k %s -c max_connections=50", c.port, c.data)
	if !c.durable {
		opts += " -c fsync=off -c synchronous_commit=off"
	}
	c.run(time.Minute, filepath.Join(c.bin, "pg_ctl"), "-D", c.data, "-o", opts, "-l", filepath.Join(c.data, "log"), "-w", "-t", "50", "start")
	c.tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		args := append(append([]string{}, c.asUser...), filepath.Join(c.bin, "pg_ctl"), "-D", c.data, "-m", "fast", "-w", "stop")
		exec.CommandContext(ctx, args[0], args[1:]...).Run()
	})
}

// Stop stops the cluster as an outage would, ending the connections
// open to it; Start starts it again, on the same port.
func (c *Cluster) Stop() {
	c.tb.Helper()
	c.run(time.Minute, filepath.Join(c.bin, "pg_ctl"), "-D", c.data, "-m", "fast", "-w", "stop")
}

// run runs one of PostgreSQL's programs, as its user when the test runs
// as root, failing the test with the program's output and the log.
func (c *Cluster) run(timeout time.Duration, args ...string) {
	c.tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	args = append(append([]string{}, c.asUser...), args...)
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	if out, err := cmd.CombinedOutput(); err != nil {
		log, _ := os.ReadFile(filepath.Join(c.data, "log"))
		c.tb.Fatalf("%s: %v\n%s\n%s", filepath.Base(args[len(c.asUser)]), err, out, log)
	}
}

// freePort returns a TCP port of 127.0.0.1 that nothing listens on now.
func freePort(tb testing.TB) int {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// NewDatabase creates the database name on the cluster dsn names and
// returns its connection string: one cluster serves a test's subtests,
// each in a database of its own.
func NewDatabase(tb testing.TB, dsn, name string) string {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		tb.Fatal(err)
	}
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		tb.Fatal(err)
	}
	return fmt.Sprintf("postgres://%s@%s:%d/%s?sslmode=disable", cfg.User, cfg.Host, cfg.Port, name)
}
