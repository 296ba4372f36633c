package submission

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/bulkdesk/bulkdesk/schema"
)

// MaxChunk is the most elements one bulk, and so one chunk, holds.
const MaxChunk = schema.MaxElements

// refVersion is part of every digest, so that a change to the canonical
// form can never make old and new refs collide.
const refVersion = "bulkdesk-chunk/1"

// PlanOptions shape a plan.
type PlanOptions struct {
	// BackOffice submits to the back-office API.
	BackOffice bool
	// ChunkSize is the most elements per chunk; 0 means MaxChunk.
	ChunkSize int
	// Only lists the indexes of the elements to submit, in order (for
	// example the valid ones, see schema.Report.ValidElements); nil means all.
	Only []int
	// Salt, when set, changes every ref: a deliberate new submission of
	// content that was submitted before. Make one with NewSalt.
	Salt string
	// Source names the file the elements came from, for the journal.
	Source string
	// Origin, when set, locates element i in a spreadsheet or CSV file:
	// its sheet and row. Chunks then keep their elements' rows, so that
	// the journal maps a bulk's operations back to the file on its own.
	// A sheet of "" means the element is its own place (a JSON body).
	Origin func(i int) (sheet string, row int)
}

// A Plan is a request cut into chunks, ready to submit.
type Plan struct {
	// ID identifies the submission: the same content, kind, endpoint and
	// salt give the same ID.
	ID         string
	Kind       *schema.Kind
	BackOffice bool
	Endpoint   schema.Endpoint
	Source     string
	Salt       string
	// Elements is how many elements the chunks hold together.
	Elements int
	Chunks   []Chunk
	// chunkSize is the most elements per chunk it was planned with; 0
	// when rebuilt from the journal.
	chunkSize int
}

// A Chunk is the part of a request that becomes one bulk.
type Chunk struct {
	// Index is the chunk's position in the plan, from 0.
	Index int
	// Elements are the indexes, in the operator's request, of the chunk's
	// elements: the element at sequence i of the bulk is Elements.At(i).
	Elements Spans
	// Body is the request body: the elements' canonical JSON.
	Body []byte
	// Fingerprints are the elements' fingerprints, FingerprintSize bytes
	// each, in the order of Elements (see Fingerprint).
	Fingerprints []byte
	// Digest identifies the content, kind and endpoint, whatever the salt.
	Digest string
	// Ref is the idempotency-ref.
	Ref string
	// Sheet and Rows locate the chunk's elements in the operator's file,
	// in the order of Elements, when it was a spreadsheet or CSV file
	// (see PlanOptions.Origin); otherwise they are empty.
	Sheet string
	Rows  Spans
}

// Count returns how many elements the chunk holds.
func (c *Chunk) Count() int { return c.Elements.Len() }

// NewPlan cuts elements (decoded as by schema.DecodeJSON) into chunks.
func NewPlan(k *schema.Kind, elements []any, opts PlanOptions) (*Plan, error) {
	ep, err := k.Endpoint(opts.BackOffice)
	if err != nil {
		return nil, err
	}
	size := opts.ChunkSize
	if size == 0 {
		size = MaxChunk
	}
	if size < 1 || size > MaxChunk {
		return nil, fmt.Errorf("part size %d: it must be between 1 and %d", size, MaxChunk)
	}
	idx := opts.Only
	if idx == nil {
		idx = make([]int, len(elements))
		for i := range idx {
			idx[i] = i
		}
	}
	if len(idx) == 0 {
		return nil, fmt.Errorf("nothing to submit: no elements")
	}
	for n, i := range idx {
		if i < 0 || i >= len(elements) || n > 0 && i <= idx[n-1] {
			return nil, fmt.Errorf("element index %d: the indexes to submit must be increasing and within the request's %d elements", i, len(elements))
		}
	}
	p := &Plan{Kind: k, BackOffice: opts.BackOffice, Endpoint: ep, Source: opts.Source, Salt: opts.Salt, Elements: len(idx), chunkSize: size}
	fpr := newFingerprinter()
	for start := 0; start < len(idx); start += size {
		part := idx[start:min(start+size, len(idx))]
		body, fps, err := canonicalBody(elements, part, k, fpr)
		if err != nil {
			return nil, err
		}
		c := Chunk{Index: len(p.Chunks), Elements: spansOf(part), Body: body, Fingerprints: fps}
		if opts.Origin != nil {
			c.Sheet, c.Rows = rowsOf(part, opts.Origin)
		}
		c.Digest = digest(k, opts.BackOffice, ep, body)
		c.Ref = refOf(c.Digest, opts.Salt)
		p.Chunks = append(p.Chunks, c)
	}
	p.ID = planID(p.Chunks)
	return p, nil
}

// rowsOf returns the sheet and file rows of the elements idx, or nothing
// when they are not in a sheet.
func rowsOf(idx []int, origin func(int) (string, int)) (string, Spans) {
	sheet, _ := origin(idx[0])
	if sheet == "" {
		return "", nil
	}
	rows := make([]int, len(idx))
	for n, i := range idx {
		_, rows[n] = origin(i)
	}
	return sheet, spansOf(rows)
}

// canonicalBody writes the elements as a compact JSON array, object keys
// sorted and numbers as written, so that equal content gives equal bytes;
// with it, the elements' fingerprints, taken from the same bytes.
func canonicalBody(elements []any, idx []int, k *schema.Kind, f *fingerprinter) (body, fps []byte, err error) {
	buf := make([]byte, 0, 256*len(idx))
	fps = make([]byte, 0, FingerprintSize*len(idx))
	buf = append(buf, '[')
	for n, i := range idx {
		if n > 0 {
			buf = append(buf, ',')
		}
		start := len(buf)
		if buf, err = schema.AppendCanonical(buf, elements[i]); err != nil {
			return nil, nil, fmt.Errorf("element %d: %w", i, err)
		}
		fp, err := f.canonicalElement(k, elements[i], buf[start:])
		if err != nil {
			return nil, nil, fmt.Errorf("element %d: %w", i, err)
		}
		fps = append(fps, fp[:]...)
	}
	return append(buf, ']'), fps, nil
}

func digest(k *schema.Kind, backOffice bool, ep schema.Endpoint, body []byte) string {
	api := "standard"
	if backOffice {
		api = "back-office"
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s %s\n", refVersion, k.ID, api, ep)
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

// refOf derives the idempotency-ref: 128 bits of the digest and the salt.
func refOf(digest, salt string) string {
	h := sha256.Sum256([]byte(digest + "\n" + salt))
	return "bd-" + hex.EncodeToString(h[:16])
}

func planID(chunks []Chunk) string {
	h := sha256.New()
	for _, c := range chunks {
		h.Write([]byte(c.Ref))
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// NewSalt returns a random salt for a deliberate new submission.
func NewSalt() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
