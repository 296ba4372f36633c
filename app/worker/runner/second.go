package runner

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/bulkdesk/bulkdesk/app/wire"
)

// A Handoff is the result of a job that did its part and leaves the rest to
// the second worker: the request Job with Request (encoded as JSON) and
// Data goes there under the page's id, and the second worker's answer is
// the page's answer.
type Handoff struct {
	Job     string
	Request any
	Data    []byte
}

// handOver sends a Handoff to the second worker.
func (s *Server) handOver(ctx context.Context, id int, h Handoff) error {
	if s.Forward == nil {
		return fmt.Errorf("job %s needs the second worker, and there is none", h.Job)
	}
	body, err := json.Marshal(h.Request)
	if err != nil {
		return fmt.Errorf("encoding the request for %s: %w", h.Job, err)
	}
	l := s.language()
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return err // canceled while the first part ran
	}
	s.second[id] = true
	s.forward(wire.Message{ID: id, Type: wire.TypeRequest, Job: h.Job, Body: body, Data: h.Data}, l)
	return nil
}

// FromSecond takes a message from the second worker and passes it on to the
// page: progress, results and errors of the jobs it runs, and its requests
// for the page's storage. That it started or warmed up concerns this
// worker alone.
func (s *Server) FromSecond(m wire.Message) {
	switch m.Type {
	case wire.TypeReady, wire.TypeWarm:
		return
	case wire.TypeFatal:
		s.SecondFailed(s.sayAgain(m.Body))
		return
	case wire.TypeError:
		m.Body = s.sayAgain(m.Body)
		fallthrough
	case wire.TypeResult:
		s.mu.Lock()
		delete(s.second, m.ID)
		s.mu.Unlock()
		if s.Forwarded != nil {
			s.Forwarded(m)
		}
	}
	s.post(m)
}

// SecondFailed ends every job the second worker was running with the error
// body (a wire.Error): it stopped, or could not start, and will not
// answer them.
func (s *Server) SecondFailed(body []byte) {
	s.mu.Lock()
	ids := s.second
	s.second = make(map[int]bool)
	s.mu.Unlock()
	for id := range ids {
		s.post(wire.Message{ID: id, Type: wire.TypeError, Body: body})
	}
}
