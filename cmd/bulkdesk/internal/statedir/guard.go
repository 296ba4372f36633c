package statedir

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// DefaultCheckEvery is how often Run checks the folder when not told.
const DefaultCheckEvery = 5 * time.Second

// ErrLost is wrapped by every error of a Guard's Check.
var ErrLost = errors.New("the state folder was removed or replaced while the server ran")

// identity is what a database file and its folder were when Open opened
// it: compared with os.SameFile (device and inode on Unix).
type identity struct {
	folder, file os.FileInfo
}

// opened holds the identity of each database Open opened in this
// process, by the database's absolute path.
var opened sync.Map

// remember keeps the identity of the database Open opened at path, in
// dir, as f. The path must still name f: a file replaced while it was
// opened would be watched as the wrong one.
func remember(dir, path string, f *os.File) error {
	if f == nil {
		return errors.New("no file was opened")
	}
	file, err := f.Stat()
	if err != nil {
		return fmt.Errorf("reading what was opened: %w", err)
	}
	folder, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("reading the state folder: %w", err)
	}
	if at, err := os.Stat(path); err != nil || !os.SameFile(at, file) {
		return errors.New("the file was removed or replaced while it was opened")
	}
	key, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	opened.Store(key, identity{folder: folder, file: file})
	return nil
}

// A Guard tells whether a state folder, and the databases Open opened in
// it, are still where the server opened them. The lock of an open
// database stays on its file when the file or its folder is removed,
// moved or replaced: the server would go on writing to a file nobody
// reads, and another server could start on the same path with an empty
// record. Once a Check fails, every later one fails too, until the server
// is restarted: a folder put back need not hold what was written
// meanwhile, nor does anything say it is the one the server opened.
type Guard struct {
	dir   string
	files []watched

	mu   sync.Mutex
	lost error
}

// watched is one database a Guard checks.
type watched struct {
	path string
	identity
}

// Watch returns a Guard of dir and of the databases named (their file
// names) that Open opened in it. It fails when one of them was not opened
// by this process, or is no longer where it was opened.
func Watch(dir string, names ...string) (*Guard, error) {
	if len(names) == 0 {
		return nil, fmt.Errorf("watching the state folder %s: no database named", dir)
	}
	g := &Guard{dir: dir}
	for _, name := range names {
		path := filepath.Join(dir, name)
		key, err := filepath.Abs(path)
		if err != nil {
			return nil, fmt.Errorf("watching %s: %w", path, err)
		}
		id, ok := opened.Load(key)
		if !ok {
			return nil, fmt.Errorf("watching %s: this process has not opened it", path)
		}
		g.files = append(g.files, watched{path: path, identity: id.(identity)})
	}
	if err := g.Check(); err != nil {
		return nil, err
	}
	return g, nil
}

// Check compares the folder and each database, as their paths name them
// now, with what Open opened. Its error, which wraps ErrLost, says what
// changed; any error reading them counts, since what cannot be read
// cannot be trusted.
func (g *Guard) Check() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.lost == nil {
		g.lost = g.look()
	}
	return g.lost
}

func (g *Guard) look() error {
	folder, err := os.Stat(g.dir)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrLost, err)
	}
	for _, f := range g.files {
		if !os.SameFile(folder, f.folder) {
			return fmt.Errorf("%w: %s is no longer the folder %s was opened in", ErrLost, g.dir, filepath.Base(f.path))
		}
		at, err := os.Stat(f.path)
		if err != nil {
			return fmt.Errorf("%w: %w", ErrLost, err)
		}
		if !os.SameFile(at, f.file) {
			return fmt.Errorf("%w: %s is another file than the database opened there", ErrLost, f.path)
		}
	}
	return nil
}

// Run checks every period (DefaultCheckEvery when not positive) until ctx
// is done or a check fails; then it calls lost, once, with the failure.
func (g *Guard) Run(ctx context.Context, every time.Duration, lost func(error)) {
	if every <= 0 {
		every = DefaultCheckEvery
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		if err := g.Check(); err != nil {
			lost(err)
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
