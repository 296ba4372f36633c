package jobs

import (
	"time"

	"github.com/bulkdesk/bulkdesk/schema"
)

// SetClock sets the clock the validation compares dates against (a time
// scheduled in the past, or years ahead), as fixture.Validator fixes it
// for tests; the contract chosen later keeps it. Call it before Run.
func (s *Server) SetClock(now func() time.Time) {
	s.clock = now
	s.validator = s.clocked(s.validator)
}

// clocked returns v with the server's clock, if it has one: a validator
// of its own when v is the shared one, whose clock is everyone's.
func (s *Server) clocked(v *schema.Validator) *schema.Validator {
	if s.clock == nil {
		return v
	}
	if v == schema.Default() {
		own, err := schema.NewValidator()
		if err != nil {
			return v
		}
		v = own
	}
	v.Now = s.clock
	return v
}
