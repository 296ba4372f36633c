package jobs_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/draft"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// keptTexts is a draft store holding the texts a browser's store holds,
// as a console of another version may have left them.
type keptTexts struct {
	mu   sync.Mutex
	meta string
	data []byte
	ops  map[int]string
}

func (k *keptTexts) Begin(_ context.Context, m draft.Meta, data []byte) error {
	m.Size = len(data)
	meta, err := draft.EncodeMeta(m)
	k.mu.Lock()
	defer k.mu.Unlock()
	k.meta, k.data, k.ops = meta, data, map[int]string{}
	return err
}

func (k *keptTexts) Append(_ context.Context, o draft.Op) error {
	text, err := draft.EncodeOp(o)
	k.mu.Lock()
	defer k.mu.Unlock()
	k.ops[o.Seq] = text
	return err
}

func (k *keptTexts) Drop(_ context.Context, seqs ...int) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, q := range seqs {
		delete(k.ops, q)
	}
	return nil
}

func (k *keptTexts) Load(context.Context) (*draft.Draft, bool, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.meta == "" {
		return nil, false, nil
	}
	d, err := draft.Decode(k.meta, k.data, slices.Collect(maps.Values(k.ops)))
	return d, err == nil, err
}

func (k *keptTexts) Clear(context.Context) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.meta, k.data, k.ops = "", nil, nil
	return nil
}

// A draft another version of the console wrote is not replayed: the page
// is told, in the console's language, and the draft is gone.
func TestADraftOfAnotherVersionIsDiscardedWithANote(t *testing.T) {
	const note = "The file kept in this browser was saved by another version of the console and cannot be brought back; it is discarded. Open the file again."
	for _, l := range []lang.Tag{lang.English, lang.German, lang.French} {
		store := &keptTexts{
			meta: fmt.Sprintf(`{"version":2,"open":{"fileName":"pay.csv","kind":"transfers","auto":true},"size":%d}`, len(payCSV)),
			data: []byte(payCSV),
			ops:  map[int]string{1: `{"seq":1,"edit":{"element":1,"column":5,"value":"EUR"}}`},
		}
		h := newHarness(t, withDrafts(store))
		h.contract(wire.SetContract{Lang: string(l)})
		r := h.restore()
		if r.Found || r.Problem != l.T(note) {
			t.Errorf("%s: restored %+v, want the note %q", l, r, l.T(note))
		}
		if l != lang.English && r.Problem == note {
			t.Errorf("%s: the note is not translated", l)
		}
		if _, ok, err := store.Load(context.Background()); ok || err != nil {
			t.Errorf("%s: the draft of another version is still kept (%v)", l, err)
		}
	}
}

// A draft kept by the console before drafts had a form of their own (the
// protocol's requests, with their document numbers) is replayed as it was
// written.
func TestADraftWrittenBeforeIsReplayed(t *testing.T) {
	store := &keptTexts{
		meta: fmt.Sprintf(`{"version":1,"open":{"fileName":"pay.csv","kind":"transfers","auto":true},"size":%d}`, len(payCSV)),
		data: []byte(payCSV),
		ops: map[int]string{
			1: `{"seq":1,"prepare":{"document":0,"settings":{"amounts":"major","decimal":"."},"chosen":["amounts","decimal"],"build":true}}`,
			2: `{"seq":2,"edit":{"element":1,"column":5,"value":"EUR"}}`,
			3: `{"seq":3,"replace":{"document":0,"column":6,"find":"300","with":"3","wholeCell":true}}`,
			4: `{"seq":4,"limits":{"limits":["EUR:15"]}}`,
		},
	}
	h := newHarness(t, withDrafts(store))
	r := h.restore()
	if !r.Found || r.Problem != "" || r.Edits != 2 || len(r.Limits) != 1 || r.Limits[0] != "EUR:15.00" {
		t.Fatalf("restored %+v", r)
	}
	doc := r.Prepared.Document
	for _, c := range []struct {
		element, column int
		want            string
	}{{1, 5, "EUR"}, {2, 6, "3"}, {0, 6, "1050"}} {
		if got := h.cell(doc, c.element, c.column); got != c.want {
			t.Errorf("element %d column %d = %q, want %q", c.element, c.column, got, c.want)
		}
	}
	if s := r.Prepared.Settings; s.Amounts != wire.AmountsMajor || s.Decimal != "." {
		t.Errorf("the settings chosen are lost: %+v", s)
	}
}
