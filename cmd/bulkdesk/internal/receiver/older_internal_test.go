package receiver

import "testing"

// TestLineHead reads an event's number and type from the start of a
// stored line, and from the whole line when it is written otherwise.
func TestLineHead(t *testing.T) {
	for _, tc := range []struct {
		line string
		seq  uint64
		typ  string
		ok   bool
	}{
		{`{"seq":12,"type":"/transfers/watch","receivedAt":"2026-11-27T10:00:00Z"}`, 12, "/transfers/watch", true},
		{`{"type":"/send/watch","seq":5}`, 5, "/send/watch", true},
		{`{"seq":7,"type":"/a\"b"}`, 7, `/a"b`, true},
		{`{"seq":,"type":"/x"}`, 0, "", false},
		{`not an event`, 0, "", false},
		{`{"type":"/x"}`, 0, "", false},
	} {
		seq, typ, ok := lineHead([]byte(tc.line + "\n"))
		if seq != tc.seq || typ != tc.typ || ok != tc.ok {
			t.Errorf("%s: %d %q %v, want %d %q %v", tc.line, seq, typ, ok, tc.seq, tc.typ, tc.ok)
		}
	}
}
