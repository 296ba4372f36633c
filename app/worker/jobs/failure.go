package jobs

import (
	"errors"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
)

// failure is err as the page shows it, with code: a file that cannot be
// read as ingest said it (in the language it was opened in), and any
// other error as runner.Server.Failure says it.
func (s *Server) failure(code string, err error) error {
	var unread *ingest.ReadError
	if errors.As(err, &unread) {
		return wire.Errorf(code, "%s", unread.Error())
	}
	return s.Failure(code, err)
}

// reason is err as the reason a sentence gives for what went wrong beside
// a result: what ingest said of a file it could not read, and any other
// error as runner.Server.Reason gives it.
func (s *Server) reason(err error) error {
	var unread *ingest.ReadError
	if errors.As(err, &unread) {
		return runner.Said(unread.Error())
	}
	return s.Reason(err)
}
