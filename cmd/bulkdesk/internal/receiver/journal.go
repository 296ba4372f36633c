package receiver

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// journalName is the file, inside the events directory, that accepted
// events are appended to, one a line. It is rotated into segments named
// events-<time of its last write>.jsonl (segmentLayout, UTC), which sort
// in order of their events.
const journalName = "events.jsonl"

const (
	segmentPrefix = "events-"
	segmentSuffix = ".jsonl"
	segmentLayout = "20060102T150405.000000000Z"
)

// segment is one rotated part of the journal.
type segment struct {
	name string
	// last is the time of its last write: every event in it was received
	// no later than this.
	last time.Time
}

// journal is the append-only, rotated file of accepted events. After New
// only the commit goroutine writes it; GET /events reads its older events
// (older.go) under mu, which rotation and pruning hold to rename and
// remove files.
type journal struct {
	mu   sync.RWMutex
	dir  string
	path string
	f    *os.File
	size int64 // the offset just past the last whole line
	// lastWrite is when the active file was last written, to rotate it on
	// the first write of a new day.
	lastWrite time.Time
	// segments are the rotated files, oldest first.
	segments []segment
	// dirDirty is set while a file was created or renamed in dir but dir
	// was not yet synced: the next sync does it, or a new file's events
	// could be lost with its name in a crash.
	dirDirty bool

	segmentBytes int64
	retention    time.Duration
	log          *slog.Logger
	syncHook     func(events int) error
}

// openJournal opens (creating it if needed) the journal in dir and removes
// the segments older than the retention.
func openJournal(dir string, cfg Config) (*journal, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating the events directory: %w", err)
	}
	path := filepath.Join(dir, journalName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening the events file: %w", err)
	}
	j := &journal{
		dir: dir, path: path, f: f, dirDirty: true,
		segmentBytes: cfg.SegmentBytes, retention: cfg.Retention, log: cfg.Logger, syncHook: cfg.syncHook,
	}
	if info, err := f.Stat(); err == nil {
		j.lastWrite = info.ModTime()
	}
	names, err := os.ReadDir(dir)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("listing the events directory: %w", err)
	}
	for _, de := range names {
		if s, ok := parseSegmentName(de.Name()); ok && de.Type().IsRegular() {
			j.segments = append(j.segments, s)
		}
	}
	slices.SortFunc(j.segments, func(a, b segment) int { return strings.Compare(a.name, b.name) })
	j.prune(cfg.Now())
	return j, nil
}

func segmentName(last time.Time) string {
	return segmentPrefix + last.UTC().Format(segmentLayout) + segmentSuffix
}

func parseSegmentName(name string) (segment, bool) {
	s, ok := strings.CutPrefix(name, segmentPrefix)
	if !ok {
		return segment{}, false
	}
	if s, ok = strings.CutSuffix(s, segmentSuffix); !ok {
		return segment{}, false
	}
	t, err := time.Parse(segmentLayout, s)
	if err != nil {
		return segment{}, false
	}
	return segment{name: name, last: t}, true
}

// load reads the stored events back: the active file, then segments from
// the newest, until enough says that the lines read so far and segments
// whose events were all received before the given time are not needed.
// It then calls fn with every line of the files read, oldest first, with
// its file and line number. A last line of the active file without its
// newline, left by a crash in the middle of a write, is cut off: its event
// was never acknowledged.
func (j *journal) load(enough func(lines int, olderThan time.Time) bool, fn func(file string, n int, line []byte)) error {
	type line struct {
		n    int
		text []byte
	}
	type file struct {
		name  string
		lines []line
	}
	collect := func(f *file) func(int, []byte) {
		return func(n int, text []byte) {
			if len(text) > 0 {
				f.lines = append(f.lines, line{n, bytes.Clone(text)})
			}
		}
	}
	active := &file{name: journalName}
	good, err := readLines(j.f, collect(active))
	if err != nil {
		return fmt.Errorf("reading %s: %w", j.path, err)
	}
	if end, err := j.f.Seek(0, io.SeekEnd); err == nil && end > good {
		if err := j.f.Truncate(good); err != nil {
			return fmt.Errorf("cutting the unfinished last line of %s: %w", j.path, err)
		}
	}
	j.size = good
	files := []*file{active}
	count := len(active.lines)
	for i := len(j.segments) - 1; i >= 0 && !enough(count, j.segments[i].last); i-- {
		seg := &file{name: j.segments[i].name}
		path := filepath.Join(j.dir, seg.name)
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("opening %s: %w", path, err)
		}
		_, err = readLines(f, collect(seg))
		f.Close()
		if err != nil {
			return fmt.Errorf("reading %s: %w", path, err)
		}
		files = append(files, seg)
		count += len(seg.lines)
	}
	for i := len(files) - 1; i >= 0; i-- {
		for _, l := range files[i].lines {
			fn(files[i].name, l.n, l.text)
		}
	}
	return nil
}

// readLines calls load with each complete line of r and returns the
// offset just past the last one, with surrounding space trimmed.
func readLines(r io.Reader, load func(n int, line []byte)) (int64, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	var good int64
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			return good, nil // a partial line, if any, is ignored
		}
		if err != nil {
			return good, err
		}
		good += int64(len(line))
		load(n, bytes.TrimSpace(line))
	}
}

// rotateIfDue rotates the active file when it has reached the segment
// size or was last written on an earlier day (UTC) than now.
func (j *journal) rotateIfDue(now time.Time) error {
	if j.size == 0 {
		return nil
	}
	y1, m1, d1 := j.lastWrite.UTC().Date()
	y2, m2, d2 := now.UTC().Date()
	if j.size < j.segmentBytes && y1 == y2 && m1 == m2 && d1 == d2 {
		return nil
	}
	last := j.lastWrite
	name := segmentName(last)
	for {
		// Two rotations within a nanosecond's clock reading must not
		// overwrite each other.
		if _, err := os.Lstat(filepath.Join(j.dir, name)); errors.Is(err, os.ErrNotExist) {
			break
		}
		last = last.Add(time.Nanosecond)
		name = segmentName(last)
	}
	segPath := filepath.Join(j.dir, name)
	j.mu.Lock()
	if err := os.Rename(j.path, segPath); err != nil {
		j.mu.Unlock()
		return fmt.Errorf("rotating %s: %w", j.path, err)
	}
	j.dirDirty = true
	f, err := os.OpenFile(j.path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		// Keep appending to the file we have, under its old name.
		err = errors.Join(fmt.Errorf("rotating %s: %w", j.path, err), os.Rename(segPath, j.path))
		j.mu.Unlock()
		return err
	}
	old := j.f
	j.f, j.size = f, 0
	j.segments = append(j.segments, segment{name: name, last: last})
	j.mu.Unlock()
	if err := old.Close(); err != nil {
		j.log.Warn("webhook receiver: closing a rotated events file", "file", name, "err", err)
	}
	j.prune(now)
	return nil
}

// prune removes the segments whose events are all older than the
// retention.
func (j *journal) prune(now time.Time) {
	j.mu.Lock()
	defer j.mu.Unlock()
	cut := now.Add(-j.retention)
	keep := j.segments[:0]
	for _, s := range j.segments {
		if s.last.Before(cut) {
			err := os.Remove(filepath.Join(j.dir, s.name))
			if err == nil || errors.Is(err, os.ErrNotExist) {
				continue
			}
			j.log.Warn("webhook receiver: removing an expired events segment", "file", s.name, "err", err)
		}
		keep = append(keep, s)
	}
	j.segments = keep
}

// write appends whole lines in one write call, which keeps them whole in
// the file if the process dies just after.
func (j *journal) write(lines []byte, now time.Time) error {
	if _, err := j.f.Write(lines); err != nil {
		// Cut a partial line off so that the next one starts clean.
		return errors.Join(fmt.Errorf("appending to %s: %w", j.path, err), j.f.Truncate(j.size))
	}
	j.size += int64(len(lines))
	j.lastWrite = now
	return nil
}

// sync makes what was written durable: the file's data and, after a
// creation or rename, the directory entry that names it.
func (j *journal) sync(events int) error {
	if j.syncHook != nil {
		if err := j.syncHook(events); err != nil {
			return fmt.Errorf("syncing %s: %w", j.path, err)
		}
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("syncing %s: %w", j.path, err)
	}
	if j.dirDirty {
		if err := syncDir(j.dir); err != nil {
			return err
		}
		j.dirDirty = false
	}
	return nil
}

// rollback cuts the file back to size, dropping lines whose sync failed,
// so that a restart does not bring back events that were refused.
func (j *journal) rollback(size int64) error {
	if err := j.f.Truncate(size); err != nil {
		return fmt.Errorf("cutting unsynced events off %s: %w", j.path, err)
	}
	j.size = size
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("syncing the events directory: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("syncing the events directory: %w", err)
	}
	return nil
}

// close flushes the file to disk and closes it.
func (j *journal) close() error {
	return errors.Join(j.f.Sync(), j.f.Close())
}
