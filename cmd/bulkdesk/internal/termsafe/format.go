package termsafe

import (
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Fprintf formats as fmt.Fprintf does, with each argument's text made one
// line by Line: the format's own newlines stay, a value's are escaped.
func Fprintf(w io.Writer, format string, a ...any) (int, error) {
	return fmt.Fprintf(w, format, lines(a)...)
}

// Fprintln formats as fmt.Fprintln does, with each operand's text made one
// line by Line.
func Fprintln(w io.Writer, a ...any) (int, error) {
	return fmt.Fprintln(w, lines(a)...)
}

// lines wraps every argument that can carry text; numbers and booleans
// stay as they are, so that they still serve as a width or precision (*).
func lines(a []any) []any {
	out := make([]any, len(a))
	for i, v := range a {
		out[i] = v
		if v == nil {
			continue
		}
		switch reflect.TypeOf(v).Kind() {
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
			reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
			if _, ok := v.(fmt.Stringer); !ok {
				continue
			}
		}
		out[i] = line{v}
	}
	return out
}

// line formats its value with the verb, flags and precision it is given,
// escapes the text, then pads it to the width: a column counts what the
// terminal shows.
type line struct{ v any }

func (l line) Format(f fmt.State, verb rune) {
	spec := []byte{'%'}
	for _, flag := range "+# 0" {
		if f.Flag(int(flag)) {
			spec = append(spec, byte(flag))
		}
	}
	if p, ok := f.Precision(); ok {
		spec = append(spec, '.')
		spec = strconv.AppendInt(spec, int64(p), 10)
	}
	spec = utf8.AppendRune(spec, verb)
	text := Line(fmt.Sprintf(string(spec), l.v))
	pad := ""
	if w, ok := f.Width(); ok {
		pad = strings.Repeat(" ", max(0, w-utf8.RuneCountInString(text)))
	}
	if f.Flag('-') {
		text, pad = text+pad, ""
	}
	io.WriteString(f, pad+text)
}
