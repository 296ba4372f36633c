package jobs

// SetCollection replaces how a batch's garbage waits for the worker to be
// idle and is returned (SetBatchGC), for tests: after SetBatchGC.
func (s *Server) SetCollection(idle, free func()) {
	s.gc.idle, s.gc.free = idle, free
}
