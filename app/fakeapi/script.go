package fakeapi

import (
	"io"
	"net/http"
)

// Script answers each call with the next of its Answers and records what
// it was sent in Got: for the tests of a client's wire format. It is not
// safe for concurrent calls.
type Script struct {
	Answers []Answer
	Got     []Call
}

// Answer is one scripted answer.
type Answer struct {
	Status int
	Header map[string]string
	Body   string
}

// Call is one request a Script received.
type Call struct {
	Method, Path, Query string
	Header              http.Header
	Body                string
}

func (s *Script) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.Got = append(s.Got, Call{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Clone(), string(body)})
	if len(s.Answers) == 0 {
		http.Error(w, "no scripted answer", http.StatusTeapot)
		return
	}
	a := s.Answers[0]
	s.Answers = s.Answers[1:]
	for k, v := range a.Header {
		w.Header().Set(k, v)
	}
	w.WriteHeader(a.Status)
	io.WriteString(w, a.Body)
}
