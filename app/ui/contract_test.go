package ui

import (
	"strings"
	"testing"
)

func TestTheReadersAnswerBecomesTheWorkersSource(t *testing.T) {
	src, err := decodeReaderReply("v4.yml", `{"contract": {"Source": "v4.yml", "Title": "Bulks", "Version": "v4",
  "Schemas": [{"Kind": "transfers", "Endpoint": "POST /bulks/transfers", "JSON": {"type": "object"}}],
  "Missing": [{"Kind": "users", "Method": "POST", "Path": "/bulks/users"}],
  "Notes": [{"Kind": "transfers", "Place": "/a", "Action": "dropped", "Text": "example dropped"}]}}`)
	if err != nil {
		t.Fatal(err)
	}
	if src.Name != "v4.yml" || src.Version != "v4" || string(src.Schemas["transfers"]) != `{"type": "object"}` ||
		len(src.Missing) != 1 || src.Missing[0] != "users" || len(src.Notes) != 1 || src.Notes[0].Action != "dropped" {
		t.Errorf("source = %+v", src)
	}
}

func TestTheReadersErrorIsKeptWordForWord(t *testing.T) {
	_, err := decodeReaderReply("notes.yml", `{"error": "notes.yml: not an OpenAPI 3.x document: no \"openapi\" version"}`)
	if err == nil || !strings.HasPrefix(err.Error(), "notes.yml: not an OpenAPI") {
		t.Errorf("error = %v", err)
	}
	if _, err := decodeReaderReply("x.yml", `{}`); err == nil || !strings.Contains(err.Error(), "x.yml") {
		t.Errorf("an empty answer: error = %v", err)
	}
}

func TestAPlaceInTheFileReadsAsItsSteps(t *testing.T) {
	got := readablePointer("/paths/~1bulks~1transfers/post/requestBody/content/application~1json")
	if want := "paths › /bulks/transfers › post › requestBody › content › application/json"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
