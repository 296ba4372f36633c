package draft_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/draft"
)

func TestOpsRoundTrip(t *testing.T) {
	bo := true
	ops := []draft.Op{
		{Seq: 1, Prepare: &draft.Prepare{Kind: "transfers", BackOffice: &bo, HeaderRow: 2,
			Columns:  []draft.ColumnChoice{{Column: 3, Field: "destination.id"}},
			Settings: &draft.Settings{Amounts: "major", Decimal: ","}, Chosen: []string{"amounts", "decimal"}, Build: true}},
		{Seq: 2, Edit: &draft.Edit{Element: 41, Column: 5, Value: "EUR"}},
		{Seq: 3, Replace: &draft.Replace{Column: 5, Find: "eur", With: "EUR", WholeCell: true}},
		{Seq: 4, Limits: &draft.AmountLimits{Limits: []string{"EUR:100"}}},
		{Seq: 5, Build: true},
	}
	for _, o := range ops {
		text, err := draft.EncodeOp(o)
		if err != nil {
			t.Fatal(err)
		}
		back, err := draft.DecodeOp(text)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, o) {
			t.Errorf("op %d: got %+v, want %+v", o.Seq, back, o)
		}
	}
}

// A draft kept in a browser by the console before the draft had a form
// of its own (the protocol's requests, with their document numbers) reads
// as it was written.
func TestADraftWrittenBeforeStillReads(t *testing.T) {
	meta := `{"version":1,"open":{"fileName":"pay.csv","kind":"transfers","encoding":"windows-1252","timeZone":"Europe/Berlin","auto":true},"size":12,"limits":["EUR:100"]}`
	ops := []string{
		`{"seq":4,"limits":{"limits":["EUR:100"],"lang":"de"}}`,
		`{"seq":1,"prepare":{"document":0,"kind":"transfers","backOffice":true,"headerRow":2,"columns":[{"column":3,"field":"destination.id"}],"values":[{"field":"currency","value":"EUR"}],"settings":{"amounts":"major","decimal":","},"chosen":["amounts","decimal"],"build":true}}`,
		`{"seq":2,"edit":{"element":41,"column":5,"value":"EUR"}}`,
		`{"seq":3,"replace":{"document":0,"column":5,"find":"eur","with":"EUR","wholeCell":true}}`,
		`{"seq":5,"build":true}`,
	}
	d, err := draft.Decode(meta, []byte("profileId\n1\n"), ops)
	if err != nil {
		t.Fatal(err)
	}
	bo := true
	want := &draft.Draft{
		Meta: draft.Meta{Version: 1, Size: 12, Limits: []string{"EUR:100"},
			Open: draft.Open{FileName: "pay.csv", Kind: "transfers", Encoding: "windows-1252", TimeZone: "Europe/Berlin", Auto: true}},
		Data: []byte("profileId\n1\n"),
		Ops: []draft.Op{
			{Seq: 1, Prepare: &draft.Prepare{Kind: "transfers", BackOffice: &bo, HeaderRow: 2,
				Columns:  []draft.ColumnChoice{{Column: 3, Field: "destination.id"}},
				Values:   []draft.FieldValue{{Field: "currency", Value: "EUR"}},
				Settings: &draft.Settings{Amounts: "major", Decimal: ","}, Chosen: []string{"amounts", "decimal"}, Build: true}},
			{Seq: 2, Edit: &draft.Edit{Element: 41, Column: 5, Value: "EUR"}},
			{Seq: 3, Replace: &draft.Replace{Column: 5, Find: "eur", With: "EUR", WholeCell: true}},
			{Seq: 4, Limits: &draft.AmountLimits{Limits: []string{"EUR:100"}, Lang: "de"}},
			{Seq: 5, Build: true},
		},
	}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("read\n%+v\nwant\n%+v", d, want)
	}
}

func TestAnOpIsExactlyOneOperation(t *testing.T) {
	if _, err := draft.EncodeOp(draft.Op{Seq: 1}); err == nil {
		t.Error("an empty op was encoded")
	}
	if _, err := draft.EncodeOp(draft.Op{Seq: 1, Build: true, Edit: &draft.Edit{}}); err == nil {
		t.Error("an op of two operations was encoded")
	}
	if _, err := draft.DecodeOp(`{"seq":1}`); err == nil {
		t.Error("an empty op was decoded")
	}
}

func TestMemoryStoreKeepsOneDraftInOrder(t *testing.T) {
	ctx := context.Background()
	s := draft.NewMemory()
	if _, ok, err := s.Load(ctx); ok || err != nil {
		t.Fatalf("a new store has a draft: %v %v", ok, err)
	}
	if err := s.Append(ctx, draft.Op{Seq: 1, Build: true}); err == nil {
		t.Error("an op was added to no draft")
	}
	data := []byte("profileId\n1\n")
	open := draft.Open{FileName: "pay.csv", Kind: "transfers", Auto: true}
	if err := s.Begin(ctx, draft.Meta{Open: open, Limits: []string{"EUR:10"}}, data); err != nil {
		t.Fatal(err)
	}
	data[0] = 'X' // the store keeps its own copy
	for _, o := range []draft.Op{
		{Seq: 3, Edit: &draft.Edit{Element: 0, Column: 0, Value: "c"}},
		{Seq: 1, Edit: &draft.Edit{Element: 0, Column: 0, Value: "a"}},
		{Seq: 2, Edit: &draft.Edit{Element: 0, Column: 0, Value: "b"}},
	} {
		if err := s.Append(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Drop(ctx, 2); err != nil {
		t.Fatal(err)
	}
	d, ok, err := s.Load(ctx)
	if !ok || err != nil {
		t.Fatalf("load: %v %v", ok, err)
	}
	if string(d.Data) != "profileId\n1\n" || d.Meta.Size != len(d.Data) || d.Meta.Open != open || d.Meta.Version != draft.FormatVersion || d.Meta.Limits[0] != "EUR:10" {
		t.Errorf("meta %+v, data %q", d.Meta, d.Data)
	}
	var values []string
	for _, o := range d.Ops {
		values = append(values, o.Edit.Value)
	}
	if strings.Join(values, "") != "ac" || d.Edits() != 2 {
		t.Errorf("ops in order: %q, edits %d", values, d.Edits())
	}
	// A new draft replaces the old one and its log.
	if err := s.Begin(ctx, draft.Meta{Open: draft.Open{FileName: "other.csv"}}, nil); err != nil {
		t.Fatal(err)
	}
	if d, _, _ := s.Load(ctx); d.Meta.Open.FileName != "other.csv" || len(d.Ops) != 0 || len(d.Data) != 0 {
		t.Errorf("after a new draft: %+v", d)
	}
	if err := s.Clear(ctx); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.Load(ctx); ok {
		t.Error("cleared, yet a draft")
	}
}

func TestDecodeRefusesAnotherVersionOrATruncatedFile(t *testing.T) {
	meta, _ := draft.EncodeMeta(draft.Meta{Open: draft.Open{FileName: "a.csv"}, Size: 4})
	if _, err := draft.Decode(meta, []byte("abcd"), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := draft.Decode(meta, []byte("ab"), nil); err == nil {
		t.Error("a truncated file was read")
	}
	for _, other := range []string{`"version":2`, `"version":0`} {
		text := strings.Replace(meta, `"version":1`, other, 1)
		if _, err := draft.Decode(text, []byte("abcd"), nil); !errors.Is(err, draft.ErrOtherVersion) {
			t.Errorf("a draft of %s: %v, want ErrOtherVersion", other, err)
		}
	}
}
