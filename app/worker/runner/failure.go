package runner

import (
	"context"
	"errors"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// failure is err as the page receives it, one error for people: a
// *wire.Error as it is; a cancel as CodeCanceled; an error that can be
// said (lang.Sayer) said in the jobs' language; anything else, whose text
// is not for people, written to the log under a fresh reference and
// reported as CodeInternal with that reference.
func (s *Server) failure(err error) *wire.Error {
	var we *wire.Error
	var sayer lang.Sayer
	switch {
	case errors.As(err, &we):
		return we
	case errors.Is(err, context.Canceled):
		return &wire.Error{Code: wire.CodeCanceled, Message: s.say(lang.Errorf("Canceled."))}
	case errors.As(err, &sayer):
		return &wire.Error{Code: wire.CodeFailed, Message: s.say(err)}
	}
	return s.Hidden(wire.CodeInternal, err.Error())
}

// Failure is err as the page receives it, with code: said in the jobs'
// language when it can be (lang.Sayer), and otherwise written to the log
// under a reference the page shows (Hidden). A job returns it for an
// error whose code matters to the page.
func (s *Server) Failure(code string, err error) *wire.Error {
	var sayer lang.Sayer
	if errors.As(err, &sayer) {
		return &wire.Error{Code: code, Message: s.say(err)}
	}
	return s.Hidden(code, err.Error())
}

// Hidden writes what went wrong to the log under a fresh reference and
// returns the error the operator reads instead, with code: that something
// went wrong inside, what they can do, and the reference to give their
// administrators. A job calls it for an error whose code matters to the
// page; any other error it returns is reported so already (see failure).
func (s *Server) Hidden(code, what string) *wire.Error {
	ref := s.Logged(what)
	return &wire.Error{Code: code, Ref: ref, Message: s.inside(ref)}
}

// inside is the sentence of every Error with a reference: something went
// wrong inside, what to do, and the reference.
func (s *Server) inside(ref string) string {
	return s.say(wire.Inside(ref))
}

// sayAgain says the sentence of an error body with a reference in this
// worker's language, the page's: the second worker may have said it
// before it heard the page's language (LanguageJob), and its reference is
// all the sentence holds.
func (s *Server) sayAgain(body []byte) []byte {
	e := wire.DecodeError(body)
	if e.Ref == "" {
		return body
	}
	e.Message = s.inside(e.Ref)
	b, _ := wire.EncodeBody(e) // strings: cannot fail
	return b
}

// Reason is err as the reason a sentence gives for what went wrong beside
// a result (a journal or a contract the browser could not keep): the
// Message of a *wire.Error, err itself when it can be said (lang.Sayer),
// and otherwise a reference under which err is written to the log, said
// in the language of the sentence when it is said.
func (s *Server) Reason(err error) error {
	var we *wire.Error
	var sayer lang.Sayer
	switch {
	case errors.As(err, &we):
		return Said(we.Message)
	case errors.As(err, &sayer):
		return err
	}
	return lang.Errorf("something went wrong inside the console (reference %s)", s.Logged(err.Error()))
}

// Said is a text already said for the operator, as an error that can be
// said (lang.Sayer): it says itself as it is, in any language.
type Said string

func (t Said) Error() string { return string(t) }

// Say says the text as it is.
func (t Said) Say() (string, []any) { return "%s", []any{string(t)} }

// say writes err in the jobs' language.
func (s *Server) say(err error) string {
	if s.Say != nil {
		return s.Say(err)
	}
	return lang.English.Say(err)
}

// Unavailable is the body of the error that ends the jobs of a second
// worker that could not start or stopped (SecondFailed): err as failure
// reports it, with the code wire.CodeUnavailable.
func (s *Server) Unavailable(err error) []byte {
	e := *s.failure(err)
	e.Code = wire.CodeUnavailable
	b, _ := wire.EncodeBody(e) // strings: cannot fail
	return b
}
