package termsafe

import (
	"io"
	"sync"
	"unicode/utf8"
)

// A Writer passes text on with every control character but newline and
// tab escaped. A character cut in two between writes is held until the
// next write, or Flush, completes it. It is safe for concurrent use.
type Writer struct {
	mu   sync.Mutex
	w    io.Writer
	tail []byte // the start of a character the last write cut
	buf  []byte
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write writes p with its control characters escaped. It reports len(p)
// when the escaped text was written whole.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	text := p
	if len(w.tail) > 0 {
		text = append(w.tail, p...)
		w.tail = nil
	}
	whole := len(text) - cutStart(text)
	if whole == len(text) && len(text) == len(p) && clean(p, true) {
		if _, err := w.w.Write(p); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	w.tail = append([]byte(nil), text[whole:]...)
	w.buf = appendEscaped(w.buf[:0], text[:whole], true)
	if _, err := w.w.Write(w.buf); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes the start of a character a write left incomplete, escaped
// as the invalid bytes it then is.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.tail) == 0 {
		return nil
	}
	w.buf = appendEscaped(w.buf[:0], w.tail, true)
	w.tail = nil
	_, err := w.w.Write(w.buf)
	return err
}

// cutStart returns the length of the incomplete UTF-8 character that ends
// text, 0 when its last character is whole (or invalid beyond repair).
func cutStart(text []byte) int {
	for n := 1; n < utf8.UTFMax && n <= len(text); n++ {
		if start := text[len(text)-n:]; utf8.RuneStart(start[0]) {
			if !utf8.FullRune(start) {
				return n
			}
			return 0
		}
	}
	return 0
}
