package xlsx

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// The parts of a workbook are large, regular XML: a sheet of 10,000 rows is
// several megabytes of <row>, <c> and <v> elements. encoding/xml allocates
// for every token and is the larger part of reading a sheet, most of all
// under WebAssembly. scanner is a lean tokenizer for exactly what OOXML
// parts use: elements, attributes, text and the five predefined entities
// plus character references. It streams from an io.Reader through a
// window, so a part is never held in memory whole.

type tokenKind uint8

const (
	tokEOF tokenKind = iota
	tokStart
	tokEnd
	tokText
)

// maxToken bounds one tag or one run of text: a cell holds at most 32,767
// characters, which entities can make a few times longer.
const maxToken = 4 << 20

// scanner reads tokens. The byte slices it returns are valid until the
// next call to next.
type scanner struct {
	r   io.Reader
	buf []byte
	pos int // next unread byte in buf
	end int // end of valid data in buf
	eof bool
	err error
	// read counts the bytes taken from r, for error messages.
	read int64

	kind        tokenKind
	name        []byte // local name of a start or end tag
	attrs       []byte // raw attribute text of a start tag
	selfClosing bool
	text        []byte // raw text, entities not yet decoded
}

// scanBuffer is the size of a scanner's window.
const scanBuffer = 64 << 10

// newScanner returns a scanner of r, with the workbook's spare buffer
// when it has one; release gives the buffer back.
func (w *Workbook) newScanner(r io.Reader) *scanner {
	buf := w.spare
	w.spare = nil
	if buf == nil {
		buf = make([]byte, scanBuffer)
	}
	return &scanner{r: r, buf: buf}
}

// release keeps the scanner's buffer for the next part, unless it grew
// for a long token.
func (w *Workbook) release(s *scanner) {
	if len(s.buf) == scanBuffer {
		w.spare = s.buf
	}
	s.buf = nil
}

// fill reads more input, keeping buf[from:end]; it returns the new offset
// of from. It returns an error only when no byte could be added.
func (s *scanner) fill(from int) (int, error) {
	if s.eof {
		if s.err != nil {
			return from, s.err
		}
		return from, io.ErrUnexpectedEOF
	}
	if from > 0 {
		n := copy(s.buf, s.buf[from:s.end])
		s.pos -= from
		s.end = n
		from = 0
	}
	if s.end == len(s.buf) {
		if len(s.buf) >= maxToken {
			return from, errors.New("an XML token is too long")
		}
		nb := make([]byte, 2*len(s.buf))
		copy(nb, s.buf[:s.end])
		s.buf = nb
	}
	for {
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		s.read += int64(n)
		if err != nil {
			s.eof = true
			if err != io.EOF {
				s.err = err
			}
			if n == 0 {
				if s.err != nil {
					return from, s.err
				}
				return from, io.ErrUnexpectedEOF
			}
			return from, nil
		}
		if n > 0 {
			return from, nil
		}
	}
}

// next moves to the next token; at the end of input kind is tokEOF.
func (s *scanner) next() error {
	for {
		if s.pos >= s.end {
			if _, err := s.fill(s.pos); err != nil {
				if err == io.ErrUnexpectedEOF && s.err == nil {
					s.kind = tokEOF
					return nil
				}
				return err
			}
		}
		if s.buf[s.pos] != '<' {
			return s.scanText()
		}
		ok, err := s.scanMarkup()
		if err != nil || ok {
			return err
		}
	}
}

// scanText reads the text up to the next '<' or the end of input.
func (s *scanner) scanText() error {
	start := s.pos
	for {
		i := bytes.IndexByte(s.buf[s.pos:s.end], '<')
		if i >= 0 {
			s.pos += i
			break
		}
		s.pos = s.end
		var err error
		if start, err = s.fill(start); err != nil {
			if err == io.ErrUnexpectedEOF && s.err == nil {
				break
			}
			return err
		}
	}
	s.kind = tokText
	s.text = s.buf[start:s.pos]
	return nil
}

// need makes sure n bytes from s.pos are buffered.
func (s *scanner) need(n int) bool {
	for s.end-s.pos < n {
		if _, err := s.fill(s.pos); err != nil {
			return false
		}
	}
	return true
}

// scanMarkup reads a tag, comment, processing instruction or CDATA section
// at s.pos ('<'). It reports whether a token was produced; comments and
// declarations produce none.
func (s *scanner) scanMarkup() (bool, error) {
	if !s.need(2) {
		return false, errors.New("unexpected end of XML")
	}
	switch s.buf[s.pos+1] {
	case '?':
		return false, s.skipUntil("?>")
	case '!':
		if s.need(9) && bytes.HasPrefix(s.buf[s.pos:s.end], []byte("<![CDATA[")) {
			return true, s.scanCDATA()
		}
		if s.need(4) && bytes.HasPrefix(s.buf[s.pos:s.end], []byte("<!--")) {
			return false, s.skipUntil("-->")
		}
		// A DOCTYPE may declare entities that expand without bound; OOXML
		// parts never carry one.
		return false, errors.New("XML with a document type declaration is not accepted")
	}
	start := s.pos
	for {
		i := bytes.IndexByte(s.buf[s.pos:s.end], '>')
		if i >= 0 {
			s.pos += i + 1
			break
		}
		s.pos = s.end
		var err error
		if start, err = s.fill(start); err != nil {
			return false, fmt.Errorf("unterminated XML tag: %w", err)
		}
	}
	tag := s.buf[start+1 : s.pos-1]
	if len(tag) > 0 && tag[0] == '/' {
		s.kind = tokEnd
		s.name = localName(bytes.TrimSpace(tag[1:]))
		return true, nil
	}
	s.kind = tokStart
	s.selfClosing = len(tag) > 0 && tag[len(tag)-1] == '/'
	if s.selfClosing {
		tag = tag[:len(tag)-1]
	}
	n := 0
	for n < len(tag) && !isSpace(tag[n]) {
		n++
	}
	s.name = localName(tag[:n])
	s.attrs = tag[n:]
	return true, nil
}

func (s *scanner) skipUntil(marker string) error {
	m := []byte(marker)
	for {
		i := bytes.Index(s.buf[s.pos:s.end], m)
		if i >= 0 {
			s.pos += i + len(m)
			return nil
		}
		keep := max(s.pos, s.end-len(m))
		s.pos = keep
		if _, err := s.fill(keep); err != nil {
			return fmt.Errorf("unterminated XML comment or declaration: %w", err)
		}
	}
}

// scanCDATA returns a CDATA section as text. Its content needs no entity
// decoding, which text() handles by finding no '&' … unless the section
// holds one: CDATA is rare in OOXML, so it is re-escaped instead.
func (s *scanner) scanCDATA() error {
	s.pos += len("<![CDATA[")
	start := s.pos
	for {
		i := bytes.Index(s.buf[s.pos:s.end], []byte("]]>"))
		if i >= 0 {
			raw := s.buf[start : s.pos+i]
			s.pos += i + 3
			s.kind = tokText
			if bytes.IndexByte(raw, '&') >= 0 {
				s.text = bytes.ReplaceAll(raw, []byte("&"), []byte("&amp;"))
			} else {
				s.text = raw
			}
			return nil
		}
		s.pos = max(start, s.end-2)
		var err error
		if start, err = s.fill(start); err != nil {
			return fmt.Errorf("unterminated CDATA section: %w", err)
		}
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// localName drops a namespace prefix: some writers emit <x:c> for <c>.
func localName(name []byte) []byte {
	if i := bytes.IndexByte(name, ':'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// attr returns the raw value of the attribute called name in a start tag's
// attribute text, matching either the full name or its local part.
func attr(attrs []byte, name string) ([]byte, bool) {
	for i := 0; i < len(attrs); {
		for i < len(attrs) && isSpace(attrs[i]) {
			i++
		}
		ns := i
		for i < len(attrs) && attrs[i] != '=' && !isSpace(attrs[i]) {
			i++
		}
		key := attrs[ns:i]
		for i < len(attrs) && (isSpace(attrs[i]) || attrs[i] == '=') {
			i++
		}
		if i >= len(attrs) {
			return nil, false
		}
		q := attrs[i]
		if q != '"' && q != '\'' {
			return nil, false
		}
		i++
		vs := i
		for i < len(attrs) && attrs[i] != q {
			i++
		}
		val := attrs[vs:min(i, len(attrs))]
		i++
		if string(key) == name || (string(localName(key)) == name && !bytes.HasPrefix(key, []byte("xmlns"))) {
			return val, true
		}
	}
	return nil, false
}

// attrString returns an attribute's decoded value, or "".
func attrString(attrs []byte, name string) string {
	v, ok := attr(attrs, name)
	if !ok {
		return ""
	}
	return decodeText(v)
}

// decodeText resolves entities and character references.
func decodeText(raw []byte) string {
	if bytes.IndexByte(raw, '&') < 0 {
		return string(raw)
	}
	return string(appendDecoded(make([]byte, 0, len(raw)), raw))
}

func appendDecoded(dst, raw []byte) []byte {
	for len(raw) > 0 {
		i := bytes.IndexByte(raw, '&')
		if i < 0 {
			return append(dst, raw...)
		}
		dst = append(dst, raw[:i]...)
		raw = raw[i:]
		semi := bytes.IndexByte(raw[:min(len(raw), 12)], ';')
		if semi < 0 {
			dst = append(dst, '&')
			raw = raw[1:]
			continue
		}
		ent := raw[1:semi]
		switch string(ent) {
		case "amp":
			dst = append(dst, '&')
		case "lt":
			dst = append(dst, '<')
		case "gt":
			dst = append(dst, '>')
		case "quot":
			dst = append(dst, '"')
		case "apos":
			dst = append(dst, '\'')
		default:
			r, ok := charRef(ent)
			if !ok {
				dst = append(dst, raw[:semi+1]...)
				raw = raw[semi+1:]
				continue
			}
			dst = utf8.AppendRune(dst, r)
		}
		raw = raw[semi+1:]
	}
	return dst
}

func charRef(ent []byte) (rune, bool) {
	if len(ent) < 2 || ent[0] != '#' {
		return 0, false
	}
	var n uint64
	var err error
	if ent[1] == 'x' || ent[1] == 'X' {
		n, err = strconv.ParseUint(string(ent[2:]), 16, 32)
	} else {
		n, err = strconv.ParseUint(string(ent[1:]), 10, 32)
	}
	if err != nil || n > utf8.MaxRune {
		return 0, false
	}
	return rune(n), true
}

// cellValue reads the commonest cell content, "<v>text</v></c>", right
// after a cell's start tag, in one step instead of four tokens. It returns
// false, consuming nothing, when the input does not start that way or is
// not buffered yet; the caller then reads tokens as usual.
func (s *scanner) cellValue() ([]byte, bool) {
	b := s.buf[s.pos:s.end]
	if len(b) < 11 || b[0] != '<' || b[1] != 'v' || b[2] != '>' {
		return nil, false
	}
	i := bytes.IndexByte(b[3:], '<')
	if i < 0 {
		return nil, false
	}
	rest := b[3+i:]
	if len(rest) < 8 || string(rest[:8]) != "</v></c>" {
		return nil, false
	}
	s.pos += 3 + i + 8
	return b[3 : 3+i], true
}
