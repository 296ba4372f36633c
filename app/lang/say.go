package lang

import (
	"errors"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/money"
)

// A Sayer is an error, or any value, that can be said in every language:
// its English format, a key of the catalogs, and the arguments that fill
// it. Packages below lang (money) implement it without importing lang.
type Sayer interface {
	Say() (format string, args []any)
}

// An Error is an error said in the operator's language when it reaches
// them (Tag.F, Tag.Say), and in English otherwise (Error).
type Error struct {
	format string
	args   []any
}

// Errorf returns an error that says format, a text of the catalogs, with
// args: F translates it, Error writes it in English.
func Errorf(format string, args ...any) *Error {
	return &Error{format: format, args: args}
}

func (e *Error) Error() string { return English.F(e.format, e.args...) }

// Say returns the error's format and arguments.
func (e *Error) Say() (string, []any) { return e.format, e.args }

// Unwrap returns the first error among the arguments, as fmt.Errorf's %w
// would.
func (e *Error) Unwrap() error {
	for _, a := range e.args {
		if err, ok := a.(error); ok {
			return err
		}
	}
	return nil
}

// A Word is a text of the catalogs given as an argument of a format (a
// unit, a choice's name): F writes it in the language.
type Word string

// Say writes err in l: the first error of its chain that can be said
// (Sayer) in l, else its own text.
func (l Tag) Say(err error) string {
	if err == nil {
		return ""
	}
	if s, ok := err.(Sayer); ok {
		format, args := s.Say()
		return l.F(format, args...)
	}
	var s Sayer
	if errors.As(err, &s) {
		format, args := s.Say()
		return l.F(format, args...)
	}
	return err.Error()
}

// said writes the arguments of a format in l: a Word translated, a
// Sayer said, a mark that separates digits named, a string quoted as l
// quotes when the format quotes it (%q).
func (l Tag) said(format string, args []any) []any {
	q := quotes(format)
	var out []any
	for i, a := range args {
		var v any
		switch x := a.(type) {
		case string:
			if !q {
				continue
			}
			v = quoted{l, x}
		case Word:
			v = l.T(string(x))
		case money.Char:
			v = l.markName(x)
		case money.Alternatives:
			v = strings.Join(x, " "+l.T("or")+" ")
		case Day:
			v = l.Day(time.Time(x))
		case error:
			v = l.Say(x)
		case Sayer:
			format, args := x.Say()
			v = l.F(format, args...)
		default:
			continue
		}
		if out == nil {
			out = make([]any, len(args))
			copy(out, args)
		}
		out[i] = v
	}
	if out == nil {
		return args
	}
	return out
}

// markName names a mark that separates digits as l writes it: '.' is
// „.“ in German, a space is "ein Leerzeichen".
func (l Tag) markName(m money.Char) string {
	switch m {
	case 0:
		return l.T("a misplaced character")
	case ' ':
		return l.T("a space")
	case '\u00a0':
		return l.T("a no-break space")
	case '\u202f':
		return l.T("a narrow no-break space")
	}
	return l.Quote(string(rune(m)))
}

// A Day is a calendar day given as an argument of a format: F writes it
// in words as l does (Day), "3 April 2025", "3. Apr. 2025", "3 avr. 2025".
type Day time.Time
