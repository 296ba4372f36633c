package mappingmemory_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/mappingmemory"
)

func TestHeaderSetIgnoresOrderCaseSpacingAndEmptyHeaders(t *testing.T) {
	a := mappingmemory.HeaderSet([]string{"Betrag", "Empfänger-Konto", "", "Währung "})
	b := mappingmemory.HeaderSet([]string{" WÄHRUNG", "betrag", "Empfänger Konto"})
	if !slices.Equal(a, b) || len(a) != 3 {
		t.Errorf("%q and %q differ", a, b)
	}
	if slices.Equal(a, mappingmemory.HeaderSet([]string{"Betrag", "Empfaenger Konto", "Waehrung"})) {
		t.Error("headers spelt otherwise make the same set: another bank's layout would be read as this one")
	}
	if mappingmemory.Key("transfers", a) == mappingmemory.Key("sends", a) {
		t.Error("two kinds share a key")
	}
}

func TestMemoryInMemory(t *testing.T) {
	testMemory(t, func() mappingmemory.Records { return mappingmemory.NewInMemory() })
}

// testMemory holds Records to what the memory needs of them: each new()
// gives empty records.
func testMemory(t *testing.T, new func() mappingmemory.Records) {
	ctx := context.Background()
	clock := time.Date(2026, 12, 15, 9, 0, 0, 0, time.UTC)
	open := func() *mappingmemory.Memory {
		m := mappingmemory.New(new())
		m.Now = func() time.Time { return clock }
		return m
	}
	headers := []string{"Auftraggeberkonto", "Empfängerkonto", "Betrag", "Währung"}

	t.Run("recall what was remembered, by kind and header set", func(t *testing.T) {
		m := open()
		if _, ok, err := m.Recall(ctx, "transfers", headers); ok || err != nil {
			t.Fatalf("empty memory recalls: %v %v", ok, err)
		}
		if n, err := m.Len(ctx); n != 0 || err != nil {
			t.Fatalf("empty memory holds %d: %v", n, err)
		}
		if err := m.Remember(ctx, mappingmemory.Remembered{Kind: "transfers", Headers: headers, Mapping: `{"kind":"transfers","v":1}`}); err != nil {
			t.Fatal(err)
		}
		if err := m.Remember(ctx, mappingmemory.Remembered{Kind: "sends", Headers: headers, Mapping: `{"kind":"sends"}`}); err != nil {
			t.Fatal(err)
		}
		reordered := []string{"Währung", "betrag", "Empfängerkonto", "Auftraggeberkonto", ""}
		r, ok, err := m.Recall(ctx, "transfers", reordered)
		if !ok || err != nil || r.Mapping != `{"kind":"transfers","v":1}` || !r.Saved.Equal(clock) || !slices.Equal(r.Headers, headers) {
			t.Fatalf("recall: %+v %v %v", r, ok, err)
		}
		if n, _ := m.Len(ctx); n != 2 {
			t.Errorf("%d sets remembered, want 2", n)
		}
		// Any kind: the one remembered last.
		if r, ok, _ := m.Recall(ctx, "", reordered); !ok || r.Kind != "sends" {
			t.Errorf("recall of any kind: %+v %v", r, ok)
		}
		if _, ok, _ := m.Recall(ctx, "transfers", headers[:3]); ok {
			t.Error("a subset of the headers recalls the set's mapping")
		}
		// Remembering again replaces.
		if err := m.Remember(ctx, mappingmemory.Remembered{Kind: "transfers", Headers: reordered, Mapping: `{"kind":"transfers","v":2}`}); err != nil {
			t.Fatal(err)
		}
		if r, _, _ := m.Recall(ctx, "transfers", headers); r.Mapping != `{"kind":"transfers","v":2}` {
			t.Errorf("after remembering again: %q", r.Mapping)
		}
		if r, _, _ := m.Recall(ctx, "", headers); r.Kind != "transfers" {
			t.Errorf("the kind remembered last is %q", r.Kind)
		}
	})

	t.Run("only the most recent sets are kept", func(t *testing.T) {
		m := open()
		set := func(i int) []string { return []string{fmt.Sprintf("Konto %d", i), "Betrag"} }
		for i := range mappingmemory.Limit + 5 {
			if err := m.Remember(ctx, mappingmemory.Remembered{Kind: "transfers", Headers: set(i), Mapping: fmt.Sprint(i)}); err != nil {
				t.Fatal(err)
			}
			if i == 10 {
				// Remembered again, the set is recent again.
				if err := m.Remember(ctx, mappingmemory.Remembered{Kind: "transfers", Headers: set(0), Mapping: "0 again"}); err != nil {
					t.Fatal(err)
				}
			}
		}
		kept := 0
		for i := range mappingmemory.Limit + 5 {
			_, ok, err := m.Recall(ctx, "transfers", set(i))
			if err != nil {
				t.Fatal(err)
			}
			if ok {
				kept++
			}
			if want := i == 0 || i >= 6; ok != want {
				t.Errorf("set %d kept %v, want %v", i, ok, want)
			}
		}
		if kept != mappingmemory.Limit {
			t.Errorf("%d sets kept, want %d", kept, mappingmemory.Limit)
		}
	})

	t.Run("a mapping without kind, headers or text is refused", func(t *testing.T) {
		m := open()
		for _, r := range []mappingmemory.Remembered{
			{Headers: headers, Mapping: "{}"},
			{Kind: "transfers", Headers: []string{" ", ""}, Mapping: "{}"},
			{Kind: "transfers", Headers: headers},
		} {
			if err := m.Remember(ctx, r); err == nil {
				t.Errorf("remembered %+v", r)
			}
		}
	})
}

func TestRecordsOfAnotherVersionAreIgnoredThenForgotten(t *testing.T) {
	ctx := context.Background()
	records := mappingmemory.NewInMemory()
	key := mappingmemory.Key("transfers", []string{"Betrag"})
	if err := records.Put(ctx, key, `{"version":0,"kind":"transfers","mapping":"old","seq":99}`, nil); err != nil {
		t.Fatal(err)
	}
	m := mappingmemory.New(records)
	if _, ok, err := m.Recall(ctx, "transfers", []string{"Betrag"}); ok || err != nil {
		t.Errorf("a record of another version was recalled: %v %v", ok, err)
	}
	for i := range mappingmemory.Limit {
		if err := m.Remember(ctx, mappingmemory.Remembered{Kind: "sends", Headers: []string{fmt.Sprint("h", i)}, Mapping: "m"}); err != nil {
			t.Fatal(err)
		}
	}
	all, _ := records.All(ctx)
	if _, ok := all[key]; ok || len(all) != mappingmemory.Limit {
		t.Errorf("%d records, the old one kept: %v", len(all), ok)
	}
}
