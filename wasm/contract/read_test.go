package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/schema/contract"
)

var targets = []contract.Target{{Kind: "transfers", Method: "POST", Path: "/bulks/transfers"}, {Kind: "nowhere", Method: "POST", Path: "/bulks/nowhere"}}

func TestTheReplyCarriesEachSchemaAsJSON(t *testing.T) {
	data, err := os.ReadFile("../../schema/contract/testdata/multi-bulks.yml")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Contract struct {
			Version string
			Schemas []struct {
				Kind string
				JSON map[string]any
			}
			Missing []contract.Target
		} `json:"contract"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal([]byte(reply(read("bulks.yml", data, targets))), &got); err != nil {
		t.Fatal(err)
	}
	c := got.Contract
	if got.Error != "" || c.Version != "v3" || len(c.Schemas) != 1 || c.Schemas[0].JSON["type"] != "object" || len(c.Missing) != 1 {
		t.Errorf("reply = %+v, want the transfers schema as an object and one kind missing", got)
	}
}

func TestTheReplyOfAFileNotOpenAPINamesTheFile(t *testing.T) {
	var got struct{ Error string }
	if err := json.Unmarshal([]byte(reply(read("notes.yml", []byte("shopping: [eggs]\n"), targets))), &got); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got.Error, "notes.yml") || !strings.Contains(got.Error, "OpenAPI") {
		t.Errorf("error = %q, want it to name the file and say it is not OpenAPI", got.Error)
	}
}
