// Package draft keeps the import in progress — the file, how it is read
// and every cell edit — so that leaving the page, going back from the
// submission or reloading the tab brings it back exactly.
//
// A draft is what the operator did, not what it produced: the request
// that opened the file, its bytes (stored once), then a log of operations
// in order (each JobPrepare request, builds, cell edits, find-and-replace,
// amount limits). Restoring replays the log on the bytes, which rebuilds
// the same review: reading, building and editing are deterministic. The
// log stays small however large the file: an edit is a (row, column,
// value) triple, and edits a rebuild throws away are dropped from it.
//
// A draft keeps its own form of the requests (form.go), versioned by
// FormatVersion, not the page↔worker protocol's; a draft of another
// version is refused with ErrOtherVersion rather than misread.
//
// A draft never holds credentials: none of the operations it records
// carries the API connection (only the submission jobs do, and they are
// not recorded).
package draft

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
)

// FormatVersion is the version of a draft's encoding: of its Meta and of
// every Op of its log, which are written with it. A draft of another
// version is refused (ErrOtherVersion) rather than misread. Change it
// with any change to what form.go stores.
const FormatVersion = 1

// ErrOtherVersion is why a draft written by another version of the
// console is not read.
var ErrOtherVersion = errors.New("the draft was written by another version")

// MaxBytes is the largest file kept in a draft.
const MaxBytes = 64 << 20

// Meta is how the draft's file was opened.
type Meta struct {
	Version int `json:"version"`
	// Open is how the file was opened; its Text holds pasted rows.
	Open Open `json:"open"`
	// Size is the length of the file's bytes.
	Size int `json:"size"`
	// Limits are the amount limits in use when the file was opened.
	Limits []string `json:"limits,omitempty"`
}

// An Edit is one cell changed in the review table: the element (row of
// the review), the GridColumn and the new value.
type Edit struct {
	Element int    `json:"element"`
	Column  int    `json:"column"`
	Value   string `json:"value"`
}

// An Op is one operation of the log; exactly one of its fields is set.
// Seq orders the log.
type Op struct {
	Seq     int           `json:"seq"`
	Prepare *Prepare      `json:"prepare,omitempty"`
	Build   bool          `json:"build,omitempty"`
	Edit    *Edit         `json:"edit,omitempty"`
	Replace *Replace      `json:"replace,omitempty"`
	Limits  *AmountLimits `json:"limits,omitempty"`
}

// Changes reports whether the op changes cells of the review (an edit or
// a find-and-replace): what a rebuild throws away.
func (o Op) Changes() bool { return o.Edit != nil || o.Replace != nil }

// A Draft is a stored import in progress.
type Draft struct {
	Meta Meta
	Data []byte
	Ops  []Op
}

// Edits counts the ops that change cells.
func (d *Draft) Edits() int {
	n := 0
	for _, o := range d.Ops {
		if o.Changes() {
			n++
		}
	}
	return n
}

// EncodeMeta writes a draft's meta as JSON text, of FormatVersion.
func EncodeMeta(m Meta) (string, error) {
	m.Version = FormatVersion
	b, err := json.Marshal(m)
	return string(b), err
}

// EncodeOp writes an op as JSON text.
func EncodeOp(o Op) (string, error) {
	if n := count(o); n != 1 {
		return "", fmt.Errorf("draft op %d: %d operations, want one", o.Seq, n)
	}
	b, err := json.Marshal(o)
	return string(b), err
}

func count(o Op) int {
	n := 0
	for _, set := range []bool{o.Prepare != nil, o.Build, o.Edit != nil, o.Replace != nil, o.Limits != nil} {
		if set {
			n++
		}
	}
	return n
}

// DecodeMeta reads what EncodeMeta wrote.
func DecodeMeta(text string) (Meta, error) {
	var m Meta
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		return m, fmt.Errorf("the draft: %w", err)
	}
	if m.Version != FormatVersion {
		return m, fmt.Errorf("%w (%d, this one reads %d)", ErrOtherVersion, m.Version, FormatVersion)
	}
	return m, nil
}

// DecodeOp reads what EncodeOp wrote.
func DecodeOp(text string) (Op, error) {
	var o Op
	if err := json.Unmarshal([]byte(text), &o); err != nil {
		return o, fmt.Errorf("the draft's op: %w", err)
	}
	if n := count(o); n != 1 {
		return o, fmt.Errorf("draft op %d: %d operations, want one", o.Seq, n)
	}
	return o, nil
}

// SortOps puts ops in log order.
func SortOps(ops []Op) {
	slices.SortFunc(ops, func(a, b Op) int { return a.Seq - b.Seq })
}

// A Store keeps one draft: the console imports one file at a time. Every
// method returns once the change is durable, so that what the page then
// says is saved is saved.
type Store interface {
	// Begin replaces the draft with a new one of a file's bytes (nil for
	// pasted rows) and no ops.
	Begin(ctx context.Context, m Meta, data []byte) error
	// Append adds an op to the log.
	Append(ctx context.Context, o Op) error
	// Drop removes ops from the log.
	Drop(ctx context.Context, seqs ...int) error
	// Load returns the draft, or false when there is none.
	Load(ctx context.Context) (*Draft, bool, error)
	// Clear removes the draft.
	Clear(ctx context.Context) error
}

// Memory is a Store in memory, encoded as the browser's store encodes
// it: the worker's store where the browser has no IndexedDB, and tests'.
type Memory struct {
	mu   sync.Mutex
	meta string
	data []byte
	ops  map[int]string
}

// NewMemory returns an empty Memory store.
func NewMemory() *Memory { return &Memory{} }

func (s *Memory) Begin(_ context.Context, m Meta, data []byte) error {
	m.Size = len(data)
	text, err := EncodeMeta(m)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.meta, s.data, s.ops = text, slices.Clone(data), make(map[int]string)
	return nil
}

func (s *Memory) Append(_ context.Context, o Op) error {
	text, err := EncodeOp(o)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.meta == "" {
		return fmt.Errorf("no draft to add to")
	}
	s.ops[o.Seq] = text
	return nil
}

func (s *Memory) Drop(_ context.Context, seqs ...int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, q := range seqs {
		delete(s.ops, q)
	}
	return nil
}

func (s *Memory) Load(_ context.Context) (*Draft, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.meta == "" {
		return nil, false, nil
	}
	var texts []string
	for _, t := range s.ops {
		texts = append(texts, t)
	}
	d, err := Decode(s.meta, s.data, texts)
	if err != nil {
		return nil, false, err
	}
	return d, true, nil
}

func (s *Memory) Clear(context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.meta, s.data, s.ops = "", nil, nil
	return nil
}

// Decode assembles a draft from its stored parts, the ops in any order.
func Decode(meta string, data []byte, ops []string) (*Draft, error) {
	m, err := DecodeMeta(meta)
	if err != nil {
		return nil, err
	}
	if len(data) != m.Size {
		return nil, fmt.Errorf("the draft's file has %d bytes, %d expected", len(data), m.Size)
	}
	d := &Draft{Meta: m, Data: data}
	for _, t := range ops {
		o, err := DecodeOp(t)
		if err != nil {
			return nil, err
		}
		d.Ops = append(d.Ops, o)
	}
	SortOps(d.Ops)
	return d, nil
}
