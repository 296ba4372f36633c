package runner

import (
	"encoding/json"

	"github.com/bulkdesk/bulkdesk/app/wire"
)

// LanguageJob tells the second worker the language the page speaks, in
// which it says what it finds and why a job failed: the first worker
// sends it before the first request it forwards, and again once the
// language changed, so that the second worker, started on demand, never
// speaks another. Body: the language's tag (app/lang) as JSON. The second
// worker takes it as it arrives (Told), before the request behind it,
// and does not answer.
const LanguageJob = "language"

// forward sends m to the second worker, telling it first the language l
// (Language's answer) when it has not heard it; s.mu is held.
func (s *Server) forward(m wire.Message, l string) {
	if l != "" && l != s.told {
		body, _ := json.Marshal(l) // a string: cannot fail
		s.Forward(wire.Message{Type: wire.TypeRequest, Job: LanguageJob, Body: body})
		s.told = l
	}
	s.Forward(m)
}

// language is the jobs' language for the second worker, "" when Language
// is not set.
func (s *Server) language() string {
	if s.Language == nil {
		return ""
	}
	return s.Language()
}

// hear takes a LanguageJob request, reporting whether m is one.
func (s *Server) hear(m wire.Message) bool {
	if m.Job != LanguageJob || s.Told == nil {
		return false
	}
	var tag string
	if json.Unmarshal(m.Body, &tag) == nil {
		s.Told(tag)
	}
	return true
}
