package jobs

import (
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/handoff"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
)

// reviewBulk runs wire.JobReviewBulk: the second worker reads the bulk
// from the API, and validates its elements with the contract in use here,
// the one every file is checked with.
func (s *Server) reviewBulk(c *runner.Call) (any, error) {
	var req wire.ReviewBulk
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	s.restoreContract(c.Context())
	st := &s.contract
	st.mu.Lock()
	contract := handoff.Contract{Source: st.source, Strict: st.strict, Lang: st.lang}
	st.mu.Unlock()
	return runner.Handoff{Job: handoff.ReviewBulkJob, Request: handoff.ReviewBulk{Request: req, Contract: contract}}, nil
}
