package lang

import (
	"fmt"
	"strings"
	"unicode"
)

// Quote writes s between the language's quotation marks: "EUR" in
// English, „EUR“ in German, « EUR » in French (a narrow no-break space
// inside each mark). What cannot be seen is named rather than escaped: a
// tab is ␉, a line break ␊, a zero-width space [U+200B]; spaces of every
// width stay as they are, so that "1 234" (a no-break space) reads as the
// file shows it, never as "1\u00a0234".
func (l Tag) Quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	switch l {
	case German:
		b.WriteString("„")
	case French:
		b.WriteString("«\u202f")
	default:
		b.WriteByte('"')
	}
	for _, r := range s {
		switch {
		case r < 0x20:
			b.WriteRune(0x2400 + r) // the control pictures: ␀ to ␟
		case r == 0x7f:
			b.WriteRune('␡')
		case r == unicode.ReplacementChar || unicode.IsGraphic(r):
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, "[U+%04X]", r)
		}
	}
	switch l {
	case German:
		b.WriteString("“")
	case French:
		b.WriteString("\u202f»")
	default:
		b.WriteByte('"')
	}
	return b.String()
}

// quoted is a string argument of a message in l: %q writes it between
// l's quotation marks (Quote), %s and %v as it is.
type quoted struct {
	l Tag
	s string
}

func (q quoted) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		fmt.Fprint(f, q.l.Quote(q.s))
		return
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), q.s)
}

// quotes reports whether format holds a %q verb ("%q", "%[2]q").
func quotes(format string) bool {
	for i := strings.IndexByte(format, '%'); i >= 0; {
		j := i + 1
		for j < len(format) && strings.IndexByte("[]0123456789+-# .*", format[j]) >= 0 {
			j++
		}
		if j < len(format) && format[j] == 'q' {
			return true
		}
		if j < len(format) && format[j] == '%' {
			j++
		}
		k := strings.IndexByte(format[j:], '%')
		if k < 0 {
			return false
		}
		i = j + k
	}
	return false
}
