package jobs

import (
	"errors"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// failure is err as the page shows it, with code: a file that cannot be
// read as ingest said it (in the language it was opened in), an error
// that can be said (lang.Sayer) in the operator's language, and anything
// else written to the log under a reference the page shows
// (runner.Server.Hidden).
func (s *Server) failure(code string, err error) error {
	var unread *ingest.ReadError
	var sayer lang.Sayer
	switch {
	case errors.As(err, &unread):
		return wire.Errorf(code, "%s", unread.Error())
	case errors.As(err, &sayer):
		return wire.Errorf(code, "%s", s.language().Say(err))
	}
	return s.Hidden(code, err.Error())
}

// reason is err as the reason a sentence gives for what went wrong beside
// a result (a contract or a file the browser could not keep): what a
// job's Error or an unreadable file said, err itself when it can be said
// (lang.Sayer), and otherwise a reference under which err is written to
// the log, said in the language the page speaks when the sentence
// reaches it.
func (s *Server) reason(err error) error {
	var we *wire.Error
	var unread *ingest.ReadError
	var sayer lang.Sayer
	switch {
	case errors.As(err, &we):
		return said(we.Message)
	case errors.As(err, &unread):
		return said(unread.Error())
	case errors.As(err, &sayer):
		return err
	}
	return lang.Errorf("something went wrong inside the console (reference %s)", s.Logged(err.Error()))
}

// said is a text already said for the operator, as a reason (lang.Sayer).
type said string

func (t said) Error() string { return string(t) }

// Say says the text as it is.
func (t said) Say() (string, []any) { return "%s", []any{string(t)} }
