package receiver

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
)

// older returns up to n stored events numbered below before that keep
// accepts, newest first, read from the events file and its segments: the
// pages of GET /events past what the ring holds. Files whose first event
// is numbered before or later are not read further.
func (j *journal) older(before uint64, keep func(*entry) bool, n int) ([]*entry, error) {
	j.mu.RLock()
	defer j.mu.RUnlock()
	paths := []string{j.path}
	for i := len(j.segments) - 1; i >= 0; i-- {
		paths = append(paths, filepath.Join(j.dir, j.segments[i].name))
	}
	var out []*entry
	for _, path := range paths {
		found, err := olderIn(path, before, keep)
		if errors.Is(err, os.ErrNotExist) {
			continue // removed past the retention meanwhile
		}
		if err != nil {
			return nil, err
		}
		for i := len(found) - 1; i >= 0 && len(out) < n; i-- {
			out = append(out, found[i])
		}
		if len(out) == n {
			break
		}
	}
	return out, nil
}

// olderIn returns the events of one file numbered below before that keep
// accepts, oldest first; none when its first event is not below before.
func olderIn(path string, before uint64, keep func(*entry) bool) ([]*entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	var out []*entry
	for first := true; ; first = false {
		line, err := br.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			return out, nil // a line still being written is not an event yet
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
		var head struct {
			Seq  uint64 `json:"seq"`
			Type string `json:"type"`
		}
		if json.Unmarshal(line, &head) != nil {
			continue // a damaged line, skipped as at start-up
		}
		if head.Seq >= before {
			if first {
				return nil, nil // the whole file is newer
			}
			return out, nil // numbers grow along a file
		}
		if !keep(&entry{seq: head.Seq, typ: head.Type}) {
			continue
		}
		if e, _, ok := storedEntry(slices.Clip(line), 0); ok {
			out = append(out, e)
		}
	}
}
