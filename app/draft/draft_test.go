package draft_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/draft"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

func TestOpsRoundTripWithoutDocumentNumbers(t *testing.T) {
	bo := true
	ops := []draft.Op{
		{Seq: 1, Prepare: &wire.Prepare{Document: 7, Kind: "transfers", BackOffice: &bo, HeaderRow: 2,
			Columns:  []wire.ColumnChoice{{Column: 3, Field: "destination.id"}},
			Settings: &wire.Settings{Amounts: "major", Decimal: ","}, Chosen: []string{"amounts", "decimal"}, Build: true}},
		{Seq: 2, Edit: &draft.Edit{Element: 41, Column: 5, Value: "EUR"}},
		{Seq: 3, Replace: &wire.Replace{Document: 7, Column: 5, Find: "eur", With: "EUR", WholeCell: true}},
		{Seq: 4, Limits: &wire.AmountLimits{Document: 7, Limits: []string{"EUR:100"}}},
		{Seq: 5, Build: true},
	}
	for _, o := range ops {
		text, err := draft.EncodeOp(o)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(text, `"document":7`) {
			t.Errorf("op %d keeps the document number: %s", o.Seq, text)
		}
		back, err := draft.DecodeOp(text)
		if err != nil {
			t.Fatal(err)
		}
		want := o
		switch {
		case o.Prepare != nil:
			p := *o.Prepare
			p.Document = 0
			want.Prepare = &p
		case o.Replace != nil:
			r := *o.Replace
			r.Document = 0
			want.Replace = &r
		case o.Limits != nil:
			l := *o.Limits
			l.Document = 0
			want.Limits = &l
		}
		if !reflect.DeepEqual(back, want) {
			t.Errorf("op %d: got %+v, want %+v", o.Seq, back, want)
		}
	}
	if ops[0].Prepare.Document != 7 {
		t.Error("encoding changed the caller's request")
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
	open := wire.Open{FileName: "pay.csv", Kind: "transfers", Auto: true}
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
	if err := s.Begin(ctx, draft.Meta{Open: wire.Open{FileName: "other.csv"}}, nil); err != nil {
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
	meta, _ := draft.EncodeMeta(draft.Meta{Open: wire.Open{FileName: "a.csv"}, Size: 4})
	if _, err := draft.Decode(meta, []byte("abcd"), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := draft.Decode(meta, []byte("ab"), nil); err == nil {
		t.Error("a truncated file was read")
	}
	old := strings.Replace(meta, `"version":1`, `"version":0`, 1)
	if _, err := draft.Decode(old, []byte("abcd"), nil); err == nil {
		t.Error("a draft of another version was read")
	}
}
