// Package mappingmemory remembers how the console read each set of
// headers — the sheet, the header row, the field of every column, the
// reading settings the operator chose and the values set for every row —
// so that the next file with the same headers is read the same way
// without the operator choosing it all again.
//
// What is remembered is a mapping file's text (the one "Save this
// mapping" downloads, ingest.MarshalMapping): the page hands it to the
// worker as it hands a loaded mapping file, so whatever a mapping file
// keeps, the memory keeps too. A memory is found by the kind and the set
// of headers, normalized (see HeaderSet): the same columns in another
// order, or with other capitals or spacing, are the same set.
//
// The memory is bounded: it keeps the Limit most recently remembered sets
// and forgets the oldest. It lives in the browser (IndexedDB) and is the
// operator's alone: a fresh browser profile has none.
package mappingmemory

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
)

// Limit is how many sets of headers are remembered: the most recently
// remembered.
const Limit = 50

// FormatVersion is the version of a record's encoding; records of another
// version are ignored, then forgotten as the oldest.
const FormatVersion = 1

// Remembered is how one set of headers was read, for one kind.
type Remembered struct {
	Version int    `json:"version"`
	Kind    string `json:"kind"`
	// Headers are the file's headers as it wrote them, in order.
	Headers []string `json:"headers"`
	// Mapping is the text of the mapping file that reads them.
	Mapping string `json:"mapping"`
	// Saved is when it was remembered; Seq orders the records, newest
	// highest, whatever the clock does.
	Saved time.Time `json:"saved"`
	Seq   int64     `json:"seq"`
}

// HeaderSet is the normalized set of headers that finds a memory: each
// header in lower case with only its letters and digits, without the
// empty ones, sorted, each once.
func HeaderSet(headers []string) []string {
	var set []string
	for _, h := range headers {
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				b.WriteRune(r)
			}
		}
		if b.Len() > 0 {
			set = append(set, b.String())
		}
	}
	slices.Sort(set)
	return slices.Compact(set)
}

// Key is the key of the memory of headers for kind.
func Key(kind string, headers []string) string {
	return kind + "\n" + strings.Join(HeaderSet(headers), "\x1f")
}

// Records keeps records of text by key: in IndexedDB in the browser, in
// memory in tests. Put returns once the change is durable.
type Records interface {
	// All returns every record.
	All(ctx context.Context) (map[string]string, error)
	// Put stores text at key and deletes the records at forget, at once.
	Put(ctx context.Context, key, text string, forget []string) error
}

// Memory remembers mappings by header set in Records.
type Memory struct {
	records Records
	// Now is the clock of Saved.
	Now func() time.Time
}

// New returns the memory kept in records.
func New(records Records) *Memory { return &Memory{records: records, Now: time.Now} }

// Recall returns how headers were last read as kind, or, when kind is "",
// as whichever kind they were read as most recently.
func (m *Memory) Recall(ctx context.Context, kind string, headers []string) (Remembered, bool, error) {
	all, err := m.all(ctx)
	if err != nil {
		return Remembered{}, false, err
	}
	set := strings.Join(HeaderSet(headers), "\x1f")
	var best Remembered
	found := false
	for key, r := range all {
		k, s, _ := strings.Cut(key, "\n")
		if s != set || kind != "" && k != kind || r.Kind != k {
			continue
		}
		if !found || r.Seq > best.Seq {
			best, found = r, true
		}
	}
	return best, found, nil
}

// Remember stores how r.Headers were read as r.Kind, replacing what was
// remembered of them, and forgets the oldest sets beyond Limit.
func (m *Memory) Remember(ctx context.Context, r Remembered) error {
	if r.Kind == "" || r.Mapping == "" || len(HeaderSet(r.Headers)) == 0 {
		return fmt.Errorf("remembering a mapping: it needs a kind, headers and the mapping")
	}
	raw, err := m.records.All(ctx)
	if err != nil {
		return fmt.Errorf("remembering a mapping: %w", err)
	}
	all := decodeAll(raw)
	key := Key(r.Kind, r.Headers)
	r.Version, r.Saved, r.Seq = FormatVersion, m.Now(), 1
	for _, o := range all {
		r.Seq = max(r.Seq, o.Seq+1)
	}
	text, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("remembering a mapping: %w", err)
	}
	// The oldest go first, records that cannot be read before any.
	var others []string
	for k := range raw {
		if k != key {
			others = append(others, k)
		}
	}
	slices.SortFunc(others, func(a, b string) int { return int(seqOf(all, a) - seqOf(all, b)) })
	forget := others[:max(0, len(others)-(Limit-1))]
	if err := m.records.Put(ctx, key, string(text), forget); err != nil {
		return fmt.Errorf("remembering a mapping: %w", err)
	}
	return nil
}

// Len counts the sets of headers remembered.
func (m *Memory) Len(ctx context.Context) (int, error) {
	all, err := m.all(ctx)
	return len(all), err
}

func (m *Memory) all(ctx context.Context) (map[string]Remembered, error) {
	raw, err := m.records.All(ctx)
	if err != nil {
		return nil, fmt.Errorf("recalling a mapping: %w", err)
	}
	return decodeAll(raw), nil
}

// decodeAll reads the records of this version, leaving out the others.
func decodeAll(raw map[string]string) map[string]Remembered {
	out := make(map[string]Remembered, len(raw))
	for k, text := range raw {
		var r Remembered
		if json.Unmarshal([]byte(text), &r) == nil && r.Version == FormatVersion {
			out[k] = r
		}
	}
	return out
}

// seqOf is the order of the record at key, 0 for one that cannot be read.
func seqOf(all map[string]Remembered, key string) int64 {
	if r, ok := all[key]; ok {
		return r.Seq
	}
	return 0
}
