package termsafe_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/termsafe"
)

// hostile holds every kind of character a terminal acts on.
const hostile = "a\x1b[1A\x1b[2K\rb\x07\x00\x7f\u0085\u009b\xc2\u202e\u2066\u200f\u2028\xff\n\tc"

// rawControl returns the first character of s a terminal would act on, or
// "" when there is none; newline and tab count when lines is false.
func rawControl(s string, lines bool) string {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\n' || r == '\t':
			if !lines {
				return fmt.Sprintf("%q at %d", r, i)
			}
		case r < 0x20, r >= 0x7f && r <= 0x9f, r == utf8.RuneError && n == 1,
			r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x2028, r == 0x2029:
			return fmt.Sprintf("%q at %d", s[i:i+n], i)
		}
		i += n
	}
	return ""
}

func TestLineEscapesEveryControlCharacter(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, 1,234.56 €":     "plain text, 1,234.56 €",
		"x\x1b[1A\x1b[2K\rmatches":   `x\x1b[1A\x1b[2K\rmatches`,
		"two\nlines\tand a tab":      `two\nlines\tand a tab`,
		"del\x7f c1\u0085 csi\u009b": `del\u007f c1\u0085 csi\u009b`,
		"raw csi byte \x9b[2J":       `raw csi byte \x9b[2J`,
		"cut \xe2\x80":               `cut \xe2\x80`,
		"\u202egnp.exe":              `\u202egnp.exe`,
		"isolate \u2066x\u2069":      `isolate \u2066x\u2069`,
		"mark \u200e\u200f\u061c":    `mark \u200e\u200f\u061c`,
		"sep \u2028\u2029":           `sep \u2028\u2029`,
		"kept: é ß 日本 \u200d 👩‍💻":    "kept: é ß 日本 \u200d 👩‍💻",
	} {
		if got := termsafe.Line(in); got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
	}
	if got := termsafe.Line(hostile); rawControl(got, false) != "" {
		t.Errorf("Line(%q) = %q keeps %s", hostile, got, rawControl(got, false))
	}
}

func TestWriterKeepsNewlinesAndTabsAndEscapesTheRest(t *testing.T) {
	var out bytes.Buffer
	w := termsafe.NewWriter(&out)
	in := "line one\n\tindented " + hostile + "\n"
	if n, err := w.Write([]byte(in)); n != len(in) || err != nil {
		t.Fatalf("Write: %d, %v", n, err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if c := rawControl(got, true); c != "" {
		t.Errorf("%q keeps %s", got, c)
	}
	if !strings.HasPrefix(got, "line one\n\tindented a\\x1b[1A") || !strings.HasSuffix(got, `\xff`+"\n\tc\n") {
		t.Errorf("got %q", got)
	}
}

func TestWriterCompletesACharacterCutBetweenWrites(t *testing.T) {
	var out bytes.Buffer
	w := termsafe.NewWriter(&out)
	whole := []byte("é \u202e 日")
	for i := range whole {
		if _, err := w.Write(whole[i : i+1]); err != nil {
			t.Fatal(err)
		}
	}
	w.Flush()
	if got := out.String(); got != `é \u202e 日` {
		t.Errorf("byte by byte: %q", got)
	}

	out.Reset()
	w.Write([]byte("end \xe2\x80"))
	if got := out.String(); got != "end " {
		t.Errorf("before Flush: %q", got)
	}
	w.Flush()
	if got := out.String(); got != `end \xe2\x80` {
		t.Errorf("after Flush: %q", got)
	}
}

// JSON written through a Writer stays JSON and decodes to the same values:
// the encoder escapes C0 controls itself, and the Writer's escapes of what
// it leaves raw are JSON's own.
func TestWriterKeepsJSONDecodable(t *testing.T) {
	in := map[string]string{"file": hostile, "name\u202e": "del\x7f and \u0085"}
	var out bytes.Buffer
	w := termsafe.NewWriter(&out)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(in); err != nil {
		t.Fatal(err)
	}
	if c := rawControl(out.String(), true); c != "" {
		t.Errorf("%s keeps %s", out.String(), c)
	}
	var back map[string]string
	if err := json.Unmarshal(out.Bytes(), &back); err != nil {
		t.Fatalf("%s: %v", out.String(), err)
	}
	// The encoder writes an invalid byte as U+FFFD: compare with what it
	// decodes to without the Writer.
	plain, _ := json.Marshal(in)
	var want map[string]string
	json.Unmarshal(plain, &want)
	if fmt.Sprint(back) != fmt.Sprint(want) {
		t.Errorf("decoded %q, want %q", back, want)
	}
}

func TestFprintfEscapesTheValuesAndNotTheFormat(t *testing.T) {
	var out bytes.Buffer
	termsafe.Fprintf(&out, "receipt: %s, %-6s|%*d|%v %d%%\nnext\tline\n", "pay.csv\nmatches: yes", "a\tb", 4, 7, errors.New("refused:\r\x1b[2Kok"), 12)
	want := "receipt: pay.csv\\nmatches: yes, a\\tb  |   7|refused:\\r\\x1b[2Kok 12%\nnext\tline\n"
	if got := out.String(); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	out.Reset()
	termsafe.Fprintln(&out, "bulkdesk check:", errors.New("x\ny"), 3)
	if got := out.String(); got != "bulkdesk check: x\\ny 3\n" {
		t.Errorf("Fprintln: %q", got)
	}
	out.Reset()
	termsafe.Fprintf(&out, "%q and %s", "a\x1b", []string{"b\rc"})
	if got := out.String(); got != `"a\x1b" and [b\rc]` {
		t.Errorf("quoted and a slice: %q", got)
	}
}
