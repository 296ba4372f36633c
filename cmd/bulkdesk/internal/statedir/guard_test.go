//go:build !js

package statedir_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/statedir"
	"go.etcd.io/bbolt"
)

// openState opens two databases in a new state folder, as serve does, and
// watches them.
func openState(t *testing.T) (dir string, g *statedir.Guard) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "state")
	for _, name := range []string{"a.db", "b.db"} {
		db, err := statedir.Open(dir, name, "the test record", 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
	}
	g, err := statedir.Watch(dir, "a.db", "b.db")
	if err != nil {
		t.Fatalf("watching a folder just opened: %v", err)
	}
	if err := g.Check(); err != nil {
		t.Fatalf("a folder left alone: %v", err)
	}
	return dir, g
}

func TestAGuardNoticesTheFolderOrADatabaseGone(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(t *testing.T, dir string)
	}{
		{"the folder removed", func(t *testing.T, dir string) { must(t, os.RemoveAll(dir)) }},
		{"the folder moved", func(t *testing.T, dir string) { must(t, os.Rename(dir, dir+".old")) }},
		{"the folder replaced by a copy", func(t *testing.T, dir string) {
			must(t, os.Rename(dir, dir+".old"))
			must(t, os.Mkdir(dir, 0o700))
			for _, name := range []string{"a.db", "b.db"} {
				data, err := os.ReadFile(filepath.Join(dir+".old", name))
				must(t, err)
				must(t, os.WriteFile(filepath.Join(dir, name), data, 0o600))
			}
		}},
		{"a database removed", func(t *testing.T, dir string) { must(t, os.Remove(filepath.Join(dir, "b.db"))) }},
		{"a database moved", func(t *testing.T, dir string) {
			must(t, os.Rename(filepath.Join(dir, "b.db"), filepath.Join(dir, "b.db.old")))
		}},
		{"a database replaced", func(t *testing.T, dir string) {
			other := filepath.Join(dir, "other.db")
			db, err := bbolt.Open(other, 0o600, nil)
			must(t, err)
			must(t, db.Close())
			must(t, os.Rename(other, filepath.Join(dir, "a.db")))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, g := openState(t)
			c.change(t, dir)
			err := g.Check()
			if !errors.Is(err, statedir.ErrLost) {
				t.Fatalf("Check = %v, want ErrLost", err)
			}
			// Put back, the folder is still not trusted: what the server
			// wrote meanwhile may be missing.
			if _, statErr := os.Stat(dir + ".old"); statErr == nil {
				must(t, os.RemoveAll(dir))
				must(t, os.Rename(dir+".old", dir))
			}
			if err := g.Check(); !errors.Is(err, statedir.ErrLost) {
				t.Errorf("Check after the folder was put back = %v, want ErrLost", err)
			}
		})
	}
}

func TestAGuardWatchesOnlyWhatWasOpened(t *testing.T) {
	dir, _ := openState(t)
	if _, err := statedir.Watch(dir, "a.db", "never-opened.db"); err == nil {
		t.Error("watching a database this process never opened: no error")
	}
	if _, err := statedir.Watch(dir); err == nil {
		t.Error("watching no database: no error")
	}
	must(t, os.Remove(filepath.Join(dir, "a.db")))
	if _, err := statedir.Watch(dir, "a.db"); !errors.Is(err, statedir.ErrLost) {
		t.Errorf("watching a database removed since it was opened: %v, want ErrLost", err)
	}
}

func TestAGuardRunsUntilTheFolderIsGoneAndSaysSoOnce(t *testing.T) {
	dir, g := openState(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	lost := make(chan error, 2)
	done := make(chan struct{})
	go func() {
		defer close(done)
		g.Run(ctx, time.Millisecond, func(err error) { lost <- err })
	}()
	must(t, os.RemoveAll(dir))
	select {
	case err := <-lost:
		if !errors.Is(err, statedir.ErrLost) {
			t.Errorf("Run reported %v, want ErrLost", err)
		}
	case <-ctx.Done():
		t.Fatal("Run did not notice the folder removed within 10 s")
	}
	select {
	case <-done: // Run stops once it has reported the loss
	case <-ctx.Done():
		t.Fatal("Run went on after the folder was gone")
	}
	if len(lost) != 0 {
		t.Errorf("the loss was reported %d more times", len(lost))
	}
}

func TestAGuardRunStopsWithItsContext(t *testing.T) {
	_, g := openState(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		g.Run(ctx, time.Millisecond, func(err error) { t.Errorf("a folder left alone reported lost: %v", err) })
	}()
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not stop within 10 s of its context")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
