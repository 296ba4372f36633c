package xlsx

import (
	"fmt"
	"strings"
	"testing"
)

// The shared strings and the sheet's own values live in shared blocks;
// these tests put strings on every side of a block's edge.

func TestSharedStringsAcrossBlocks(t *testing.T) {
	var want []string
	for i := range 20000 {
		switch {
		case i%1000 == 7:
			want = append(want, "")
		case i%997 == 3:
			// Longer than a quarter block: it gets a block of its own.
			want = append(want, strings.Repeat("Zürich €", sharedBlock/8+i%5))
		case i == 12345:
			want = append(want, strings.Repeat("x", sharedBlock))
		default:
			want = append(want, fmt.Sprintf("payee %d — 東京 🏦", i))
		}
	}
	s := newSharedStrings(10) // fewer than it will hold
	for _, w := range want {
		if err := s.add([]byte(w)); err != nil {
			t.Fatal(err)
		}
	}
	s.done()
	if s.len() != len(want) {
		t.Fatalf("%d strings, want %d", s.len(), len(want))
	}
	total := 0
	for _, w := range want {
		total += len(w)
	}
	held := 0
	for _, b := range s.blocks {
		held += len(b)
	}
	if held != total || len(s.blocks) < total/sharedBlock {
		t.Errorf("%d blocks hold %d bytes, want exactly the %d bytes of text", len(s.blocks), held, total)
	}
	for i, w := range want {
		if got, ok := s.get(i); !ok || got != w {
			t.Fatalf("string %d = %.40q, %v; want %.40q", i, got, ok, w)
		}
	}
	for _, i := range []int{-1, len(want)} {
		if _, ok := s.get(i); ok {
			t.Errorf("string %d exists", i)
		}
	}
}

func TestSharedStringsDecodeEscapes(t *testing.T) {
	s := newSharedStrings(0)
	for _, raw := range []string{"line_x000D_two", "_x00e9_t_x00E9_", "_xZZZZ_ and _x0041", "a_x"} {
		if err := s.add([]byte(raw)); err != nil {
			t.Fatal(err)
		}
	}
	s.done()
	for i, want := range []string{"line\rtwo", "été", "_xZZZZ_ and _x0041", "a_x"} {
		if got, _ := s.get(i); got != want {
			t.Errorf("string %d = %q, want %q", i, got, want)
		}
	}
}

func TestTextArenaCopiesAndKeepsValues(t *testing.T) {
	var a textArena
	buf := make([]byte, 0, 64)
	var got, want []string
	for i := range 50000 {
		buf = fmt.Appendf(buf[:0], "%d.%02d ñ", i*7, i%100)
		if i%5000 == 1 {
			buf = append(buf, strings.Repeat("long ", maxTextBlock/4)...)
		}
		want = append(want, string(buf))
		got = append(got, a.add(buf))
		// The caller's buffer is reused: the arena must have copied it.
		clear(buf)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("value %d = %.30q, want %.30q", i, got[i], want[i])
		}
	}
	if a.add(nil) != "" {
		t.Error("an empty value is not empty")
	}
}
