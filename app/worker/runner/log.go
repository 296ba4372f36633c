package runner

import (
	"fmt"
	"log"
	"os"

	"github.com/bulkdesk/bulkdesk/app/wire"
)

// What the operator is not shown (an error's own text, a panic and its
// stack) goes to the worker's log under a reference the page shows.

// Logged writes what went wrong to the log under a fresh reference, and
// returns the reference: for a sentence that names it, where the page
// shows what went wrong beside a result rather than instead of one.
func (s *Server) Logged(what string) string {
	ref := wire.NewRef()
	s.logger().Printf("reference %s: %s", ref, what)
	return ref
}

// logger is Log, or a log on the standard error: in the browser, its
// console.
func (s *Server) logger() *log.Logger {
	if s.Log != nil {
		return s.Log
	}
	return stderr
}

var stderr = log.New(os.Stderr, "bulkdesk worker: ", log.LstdFlags)

// panicked describes a job's panic for the log, with the stack that led
// to it.
func panicked(job string, p any, stack []byte) string {
	return fmt.Sprintf("job %s panicked: %v\n%s", job, p, stack)
}
