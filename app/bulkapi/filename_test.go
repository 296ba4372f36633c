package bulkapi_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/schema"
)

// A client given the file's name names it, percent-encoded, on its
// submissions and on no other call; a name the console's server would
// refuse (controls, more than 255 bytes) is mended rather than sent.
func TestSubmissionsNameTheirFile(t *testing.T) {
	// The 'ä' of the 17th "März" is bytes 255 and 256: cut before it.
	long := "abcd" + strings.Repeat("Lohnlauf März ", 20) + ".xlsx"
	for _, tc := range []struct{ name, want string }{
		{"Löhne März 2026+.xlsx", "Löhne März 2026+.xlsx"},
		{"pay/run;1?.json", "pay/run;1?.json"},
		{"pay\x00\trun\u202e.json", "payrun.json"},
		{long, long[:254]},
	} {
		api := &fakeapi.Script{Answers: []fakeapi.Answer{
			{Status: 201, Body: `{"bulkId":"42","operationCount":1,"path":"/bulks/42"}`},
			{Status: 200, Body: `{"bulkId":"42","status":"SUBMITTED"}`},
		}}
		c := newClient(t, api).WithFileName(tc.name)
		kind, _ := schema.Lookup("transfers")
		if _, err := c.Submit(context.Background(), kind, []byte(`[{"requestBody":{}}]`), "ref-1"); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Get(context.Background(), "42"); err != nil {
			t.Fatal(err)
		}
		sent := api.Got[0].Header.Values(bulkapi.HeaderFileName)
		if len(sent) != 1 {
			t.Fatalf("%q: the submission sent %q", tc.name, sent)
		}
		got, err := url.PathUnescape(sent[0])
		if err != nil || got != tc.want || !utf8.ValidString(got) || len(got) > bulkapi.MaxFileName {
			t.Errorf("%q: sent %q, which reads %q (%v), want %q", tc.name, sent[0], got, err, tc.want)
		}
		if strings.ContainsAny(sent[0], " /;?\x00") {
			t.Errorf("%q: sent %q, not percent-encoded", tc.name, sent[0])
		}
		if v := api.Got[1].Header.Values(bulkapi.HeaderFileName); len(v) > 0 {
			t.Errorf("%q: reading the bulk sent %q", tc.name, v)
		}
	}

	// Without a name, nothing is sent.
	api := &fakeapi.Script{Answers: []fakeapi.Answer{{Status: 201, Body: `{"bulkId":"42","operationCount":1,"path":"/bulks/42"}`}}}
	kind, _ := schema.Lookup("transfers")
	if _, err := newClient(t, api).Submit(context.Background(), kind, []byte(`[{"requestBody":{}}]`), "ref-1"); err != nil {
		t.Fatal(err)
	}
	if v := api.Got[0].Header.Values(bulkapi.HeaderFileName); len(v) > 0 {
		t.Errorf("a client given no name sent %q", v)
	}
}
