package receiver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
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
		found, err := olderIn(path, before, keep, n-len(out))
		if errors.Is(err, os.ErrNotExist) {
			continue // removed past the retention meanwhile
		}
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
		if len(out) == n {
			break
		}
	}
	return out, nil
}

// olderIn returns the newest n events of one file numbered below before
// that keep accepts, newest first; none when its first event is not below
// before. Only those n are decoded whole.
func olderIn(path string, before uint64, keep func(*entry) bool, n int) ([]*entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	newest := make([][]byte, 0, n) // the last n matching lines, as a ring
	next := 0
	for first := true; ; first = false {
		line, err := br.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			break // a line still being written is not an event yet
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
		seq, typ, ok := lineHead(line)
		if !ok {
			continue // a damaged line, skipped as at start-up
		}
		if seq >= before {
			if first {
				return nil, nil // the whole file is newer
			}
			break // numbers grow along a file
		}
		if n == 0 || !keep(&entry{seq: seq, typ: typ}) {
			continue
		}
		if len(newest) < n {
			newest = append(newest, line)
		} else {
			newest[next] = line
			next = (next + 1) % n
		}
	}
	out := make([]*entry, 0, len(newest))
	for i := range len(newest) {
		line := newest[(next+len(newest)-1-i)%len(newest)]
		if e, _, ok := storedEntry(line, 0); ok {
			out = append(out, e)
		}
	}
	return out, nil
}

// lineHead reads the number and type of a stored event: from the start
// of the line, where the receiver writes them ({"seq":12,"type":"/…"}),
// else by decoding it.
func lineHead(line []byte) (uint64, string, bool) {
	if rest, ok := bytes.CutPrefix(line, []byte(`{"seq":`)); ok {
		i := 0
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if seq, err := strconv.ParseUint(string(rest[:i]), 10, 64); err == nil && i > 0 {
			if typ, ok := bytes.CutPrefix(rest[i:], []byte(`,"type":"`)); ok {
				if end := bytes.IndexAny(typ, `"\\`); end > 0 && typ[end] == '"' {
					return seq, string(typ[:end]), true
				}
			}
		}
	}
	var head struct {
		Seq  uint64 `json:"seq"`
		Type string `json:"type"`
	}
	if json.Unmarshal(line, &head) != nil || head.Seq == 0 {
		return 0, "", false
	}
	return head.Seq, head.Type, true
}
