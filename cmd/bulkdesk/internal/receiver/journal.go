package receiver

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// journalName is the file, inside the events directory, that holds one
// accepted event a line.
const journalName = "events.jsonl"

// journal is the append-only file of accepted events.
type journal struct {
	f    *os.File
	path string
	size int64 // the offset just past the last whole line
}

// openJournal opens (creating it if needed) the journal in dir and calls
// load with every complete line, in order, with its line number. A last
// line without its newline, left by a crash in the middle of a write, is
// cut off: its event was never acknowledged.
func openJournal(dir string, load func(n int, line []byte)) (*journal, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating the events directory: %w", err)
	}
	path := filepath.Join(dir, journalName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening the events file: %w", err)
	}
	good, err := readLines(f, load)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if end, err := f.Seek(0, io.SeekEnd); err == nil && end > good {
		if err := f.Truncate(good); err != nil {
			f.Close()
			return nil, fmt.Errorf("cutting the unfinished last line of %s: %w", path, err)
		}
	}
	return &journal{f: f, path: path, size: good}, nil
}

// readLines calls load with each complete line of r and returns the
// offset just past the last one.
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
		if line = bytes.TrimSpace(line); len(line) > 0 {
			load(n, line)
		}
	}
}

// append writes one event line. One write call per line keeps lines
// whole in the file even if the process dies just after.
func (j *journal) append(data []byte) error {
	line := make([]byte, 0, len(data)+1)
	line = append(append(line, data...), '\n')
	if _, err := j.f.Write(line); err != nil {
		// Cut a partial line off so that the next one starts clean.
		return errors.Join(fmt.Errorf("appending to %s: %w", j.path, err), j.f.Truncate(j.size))
	}
	j.size += int64(len(line))
	return nil
}

// close flushes the file to disk and closes it.
func (j *journal) close() error {
	return errors.Join(j.f.Sync(), j.f.Close())
}
