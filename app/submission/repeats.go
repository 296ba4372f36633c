package submission

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/schema"
)

// A Repeat is an element of a plan that an earlier bulk holds already:
// sending it would run its operation a second time (a transfer paid
// twice).
type Repeat struct {
	// Chunk is the chunk of the new plan holding the element; Element its
	// index in the operator's request, Sheet and Row its place in the file
	// (empty and 0 for a JSON body).
	Chunk   int
	Element int
	Sheet   string
	Row     int
	// Earlier is the latest earlier bulk holding the same element.
	Earlier EarlierBulk
	// Others is how many more earlier bulks hold it.
	Others int
}

// An EarlierBulk is where an element was submitted before.
type EarlierBulk struct {
	BulkID string
	// Status is the bulk's state as the bulk list shows it, "" when the
	// list was not read.
	Status bulkapi.Status
	// When is when it was submitted (the journal) or, for a bulk known from
	// the API's record only, when its execution started (Started) or it was
	// first listed here.
	When    time.Time
	Started bool
	// Journal is set when this journal submitted it; Source, Sheet and
	// Row then say where the element was in that file.
	Journal bool
	Source  string
	Sheet   string
	Row     int
}

// Place names the element for an operator: "row 12" (with its sheet) or
// "element 11".
func (r Repeat) Place() string { return r.PlaceIn(lang.English) }

// PlaceIn is Place in w's words.
func (r Repeat) PlaceIn(w lang.Tag) string {
	if r.Sheet != "" {
		return w.F("%s row %d", r.Sheet, r.Row)
	}
	return w.F("element %d", r.Element)
}

// Describe says where the element was submitted before.
func (e EarlierBulk) Describe() string { return e.DescribeIn(lang.English) }

// DescribeIn is Describe in w's words, its date as w writes dates.
func (e EarlierBulk) DescribeIn(w lang.Tag) string {
	s := w.F("bulk %s", e.BulkID)
	if e.Status != "" {
		s = w.F("%s (%s)", s, StatusWords(e.Status, w))
	}
	when := w.Date(e.When.Truncate(time.Minute), true)
	switch {
	case e.Journal:
		s = w.F("%s on %s", s, when)
	case e.Started:
		s = w.F("%s, executed from %s", s, when)
	default:
		s = w.F("%s, listed since %s", s, when)
	}
	if e.Journal && e.Source != "" {
		from := e.Source
		if e.Sheet != "" {
			from = w.F("%s %s row %d", e.Source, e.Sheet, e.Row)
		}
		s = w.F("%s, from %s", s, from)
	}
	return s
}

// Sent reports which chunks of a plan sending would send: every chunk
// but those the journal shows submitted under the same ref, which the
// submitter skips. The repeat check covers them all.
func Sent(plan *Plan, journal []Entry) []bool {
	out := make([]bool, len(plan.Chunks))
	for i, c := range plan.Chunks {
		e, found := entryFor(journal, c.Ref)
		out[i] = !found || e.State != Submitted
	}
	return out
}

// resumes reports whether sending chunk c resumes an earlier attempt with
// the same ref that may have reached the API within its memory of refs
// (RefMemory): the API then answers with the bulk that attempt made, and
// that bulk, holding exactly the chunk's elements, is no repeat.
func resumes(c *Chunk, journal []Entry, now time.Time) bool {
	e, found := entryFor(journal, c.Ref)
	return found && e.State != Submitted && (e.State == Sending || e.State == Failed || e.Attempts > 0) && now.Sub(e.Updated) <= RefMemory
}

// queryTable finds the elements of a plan by fingerprint: open addressing
// on the first 8 bytes, which SHA-256 makes uniform. A scan of a million
// recorded fingerprints probes it a million times, so it is kept small
// and flat rather than a map.
type queryTable struct {
	keys  []uint64 // 0 is empty
	first []int32  // first query with the key, +1
	next  []int32  // next query with the same key, +1
	fps   []Fingerprint
	mask  uint64
}

func newQueryTable(fps []Fingerprint) *queryTable {
	size := 16
	for size < 2*len(fps) {
		size <<= 1
	}
	t := &queryTable{keys: make([]uint64, size), first: make([]int32, size), next: make([]int32, len(fps)), fps: fps, mask: uint64(size - 1)}
	for q, fp := range fps {
		key := binary.LittleEndian.Uint64(fp[:8]) | 1
		for s := key & t.mask; ; s = (s + 1) & t.mask {
			if t.keys[s] == 0 {
				t.keys[s], t.first[s] = key, int32(q+1)
				break
			}
			if t.keys[s] == key {
				t.next[q] = t.first[s]
				t.first[s] = int32(q + 1)
				break
			}
		}
	}
	return t
}

// lookup calls found for every query with the fingerprint at packed[off:].
func (t *queryTable) lookup(packed []byte, found func(q int)) {
	key := binary.LittleEndian.Uint64(packed[:8]) | 1
	for s := key & t.mask; ; s = (s + 1) & t.mask {
		k := t.keys[s]
		if k == 0 {
			return
		}
		if k == key {
			for q := t.first[s]; q != 0; q = t.next[q-1] {
				if string(t.fps[q-1][8:]) == string(packed[8:FingerprintSize]) {
					found(int(q - 1))
				}
			}
			return
		}
	}
}

// FindRepeats checks every element of the plan's chunks that sending
// would send (see Sent) against the bulks the journal submitted and,
// when record is not nil, the API's record: the identity's bulks made from
// any browser or machine. Journal bulks count when they are within the
// repeat window (see Counts): when the list shows them so, or, not listed,
// when they were submitted within RepeatWindow. The repeats come in plan
// order.
func FindRepeats(plan *Plan, journal []Entry, record *Record, now time.Time) []Repeat {
	sent := Sent(plan, journal)
	type query struct{ chunk, pos int }
	var qs []query
	var fps []Fingerprint
	// own holds the fingerprints of resumed chunks: a bulk holding exactly
	// them is the one their earlier attempt made.
	own := make(map[int][]byte)
	for i, c := range plan.Chunks {
		if !sent[i] || len(c.Fingerprints) != FingerprintSize*c.Count() {
			continue
		}
		if resumes(&c, journal, now) {
			own[i] = c.Fingerprints
		}
		for pos := range c.Count() {
			qs = append(qs, query{i, pos})
			fps = append(fps, fingerprintAt(c.Fingerprints, pos))
		}
	}
	if len(qs) == 0 {
		return nil
	}
	isOwn := func(q int, packed []byte) bool {
		o, ok := own[qs[q].chunk]
		return ok && bytes.Equal(o, packed)
	}
	t := newQueryTable(fps)
	best := make([]*EarlierBulk, len(qs))
	bulks := make([]map[string]bool, len(qs))
	note := func(q int, e EarlierBulk) {
		if bulks[q] == nil {
			bulks[q] = make(map[string]bool, 1)
		}
		bulks[q][e.BulkID] = true
		switch b := best[q]; {
		case b == nil:
			best[q] = &e
		case b.BulkID == e.BulkID:
			// The same bulk, from the record and the journal: the journal
			// knows the earlier row, the record the bulk's state.
			if e.Journal && !b.Journal {
				e.Status = b.Status
				best[q] = &e
			}
		case e.When.After(b.When):
			best[q] = &e
		}
	}
	scan := func(packed []byte, at func(pos int) EarlierBulk) {
		for off := 0; off+FingerprintSize <= len(packed); off += FingerprintSize {
			fp := packed[off : off+FingerprintSize]
			if binary.LittleEndian.Uint64(fp[:8]) == 0 && binary.LittleEndian.Uint64(fp[8:]) == 0 {
				continue // an operation without a fingerprint
			}
			t.lookup(fp, func(q int) {
				if !isOwn(q, packed) {
					note(q, at(off/FingerprintSize))
				}
			})
		}
	}
	if record != nil {
		for i := range record.Bulks {
			rb := &record.Bulks[i]
			scan(rb.Fingerprints, func(int) EarlierBulk {
				return EarlierBulk{BulkID: rb.BulkID, Status: rb.Status, When: rb.When(), Started: rb.ExecutionStart > 0}
			})
		}
	}
	for i := range journal {
		e := &journal[i]
		if e.State != Submitted || e.BulkID == "" || len(e.Fingerprints) == 0 {
			continue
		}
		var status bulkapi.Status
		if record != nil {
			if b, listed := record.Listed[e.BulkID]; listed {
				if !Counts(&b, now) {
					continue
				}
				status = b.Status
			} else if now.Sub(e.Updated) > RepeatWindow {
				continue
			}
		} else if now.Sub(e.Updated) > RepeatWindow {
			continue
		}
		scan(e.Fingerprints, func(pos int) EarlierBulk {
			sheet, row := e.Row(pos)
			return EarlierBulk{BulkID: e.BulkID, Status: status, When: e.Updated, Journal: true, Source: e.Source, Sheet: sheet, Row: row}
		})
	}
	var out []Repeat
	for q, b := range best {
		if b == nil {
			continue
		}
		c := &plan.Chunks[qs[q].chunk]
		el, _ := c.Elements.At(qs[q].pos)
		r := Repeat{Chunk: c.Index, Element: el, Earlier: *b, Others: len(bulks[q]) - 1}
		if c.Sheet != "" {
			r.Sheet = c.Sheet
			r.Row, _ = c.Rows.At(qs[q].pos)
		}
		out = append(out, r)
	}
	return out
}

// RepeatedBulks returns the ids of the earlier bulks the repeats name, in
// the order they first appear.
func RepeatedBulks(rs []Repeat) []string {
	var ids []string
	seen := make(map[string]bool)
	for _, r := range rs {
		if !seen[r.Earlier.BulkID] {
			seen[r.Earlier.BulkID] = true
			ids = append(ids, r.Earlier.BulkID)
		}
	}
	return ids
}

// Without returns the plan without the elements drop (indexes in the
// operator's request). It is how an operator leaves repeats out. A chunk
// holding none of them keeps its body and ref (a resumed chunk stays
// resumable); the elements left of the other chunks are packed again, in
// order, into chunks of the plan's size. The result has no chunk when
// every element is dropped.
func (p *Plan) Without(drop []int) (*Plan, error) {
	gone := make(map[int]bool, len(drop))
	for _, i := range drop {
		gone[i] = true
	}
	size := p.chunkSize
	if size <= 0 {
		size = MaxChunk
	}
	q := *p
	q.Chunks, q.Elements = nil, 0
	// The elements left of changed chunks, waiting to be packed.
	var (
		idx, rows []int
		raws      []json.RawMessage
		fps       []byte
		sheet     string
	)
	flush := func() {
		for start := 0; start < len(idx); start += size {
			end := min(start+size, len(idx))
			body := []byte{'['}
			for n, raw := range raws[start:end] {
				if n > 0 {
					body = append(body, ',')
				}
				body = append(body, raw...)
			}
			body = append(body, ']')
			c := Chunk{Index: len(q.Chunks), Elements: spansOf(idx[start:end]), Body: body, Sheet: sheet}
			if len(fps) == FingerprintSize*len(idx) {
				c.Fingerprints = slices.Clone(fps[start*FingerprintSize : end*FingerprintSize])
			}
			if sheet != "" {
				c.Rows = spansOf(rows[start:end])
			}
			c.Digest = digest(p.Kind, p.BackOffice, p.Endpoint, body)
			c.Ref = refOf(c.Digest, p.Salt)
			q.Chunks = append(q.Chunks, c)
			q.Elements += end - start
		}
		idx, rows, raws, fps = nil, nil, nil, nil
	}
	for _, c := range p.Chunks {
		ci := c.Elements.Indexes()
		if !slices.ContainsFunc(ci, func(i int) bool { return gone[i] }) {
			flush()
			c.Index = len(q.Chunks)
			q.Chunks = append(q.Chunks, c)
			q.Elements += len(ci)
			continue
		}
		var cr []json.RawMessage
		if err := json.Unmarshal(c.Body, &cr); err != nil || len(cr) != len(ci) {
			return nil, fmt.Errorf("part %d: its body does not hold its %d elements", c.Index+1, len(ci))
		}
		var crows []int
		if c.Sheet != "" {
			crows = c.Rows.Indexes()
			sheet = c.Sheet
		}
		for n, i := range ci {
			if gone[i] {
				continue
			}
			idx, raws = append(idx, i), append(raws, cr[n])
			if crows != nil {
				rows = append(rows, crows[n])
			}
			if len(c.Fingerprints) == FingerprintSize*len(ci) {
				fps = append(fps, c.Fingerprints[n*FingerprintSize:(n+1)*FingerprintSize]...)
			}
		}
	}
	flush()
	q.ID = planID(q.Chunks)
	return &q, nil
}

// FindRepeatsOf finds the elements of kind k, given by their fingerprints
// in order (a bulk read back from the API), that the journal or the record
// holds, as FindRepeats does for a plan that would send them all: no body
// is built, since nothing is sent.
func FindRepeatsOf(k *schema.Kind, fps []Fingerprint, journal []Entry, record *Record, now time.Time) []Repeat {
	c := Chunk{Elements: Spans{{From: 0, To: len(fps)}}, Fingerprints: make([]byte, 0, len(fps)*FingerprintSize)}
	for _, fp := range fps {
		c.Fingerprints = append(c.Fingerprints, fp[:]...)
	}
	return FindRepeats(&Plan{Kind: k, Elements: len(fps), Chunks: []Chunk{c}}, journal, record, now)
}
