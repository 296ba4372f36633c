package jobs_test

import (
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/draft"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/lang/langtest"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// A request the worker cannot read is a fault inside the console, not the
// operator's: the page is told so in the console's language, with a
// reference, and not what the JSON decoder said.
func TestARequestTheWorkerCannotReadIsSaidInTheConsolesLanguage(t *testing.T) {
	for _, l := range []string{"de", "fr"} {
		t.Run(l, func(t *testing.T) {
			h := newHarness(t)
			h.contract(wire.SetContract{Lang: l})
			e := h.failure(h.send(wire.JobProblems, []int{1}, nil))
			if e.Code != wire.CodeBadRequest || e.Ref == "" || !strings.Contains(e.Message, e.Ref) {
				t.Fatalf("the page got %+v: want code %q and a sentence with a reference", e, wire.CodeBadRequest)
			}
			if en := langtest.English(e.Message); len(en) > 0 || strings.Contains(e.Message, "json") {
				t.Errorf("the page reads %q: English words %q", e.Message, en)
			}
		})
	}
}

// What goes wrong beside a result, a change the browser could not keep,
// is said in the console's language with a reference, and the browser's
// own words go to the log.
func TestAChangeNotKeptIsSaidInTheConsolesLanguage(t *testing.T) {
	h := newHarness(t, withDrafts(failingStore{draft.NewMemory()}))
	h.contract(wire.SetContract{Lang: "de"})
	p := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "pay.csv", Kind: "transfers", Auto: true}, []byte(payCSV)))
	var edited wire.Edited
	h.result(h.send(wire.JobEdit, wire.Edit{Document: p.Document, Element: 1, Column: 5, Text: "EUR"}, nil), &edited)
	d := edited.Summary.Draft
	if !strings.Contains(d.Error, "Referenz") || strings.Contains(d.Error, "QuotaExceededError") || len(langtest.English(d.Error)) > 0 {
		t.Errorf("the page reads %q: want German with a reference, without the browser's words", d.Error)
	}
}

// The second worker says its errors in the language of the last plan,
// the page's: a submission the journal does not hold is gone, in French.
func TestTheSecondWorkersErrorsAreSaidInThePagesLanguage(t *testing.T) {
	h := newHarness(t)
	h.contract(wire.SetContract{Lang: "fr"})
	doc := h.load(fixture.Transfers(2))
	h.prepare(wire.PrepareSubmission{Document: doc.Document})
	e := h.failure(h.send(wire.JobForgetSubmission, wire.ForgetSubmission{Submission: "s-unknown"}, nil))
	if e.Code != wire.CodeGone || !strings.Contains(e.Message, "s-unknown") || len(langtest.English(e.Message, "s-unknown")) > 0 {
		t.Errorf("the page got %+v: want gone, in French", e)
	}
}

// The second worker speaks the page's language before any plan: the first
// tells it before the first request it forwards.
func TestTheSecondWorkerSpeaksThePagesLanguageBeforeAnyPlan(t *testing.T) {
	h := newHarness(t)
	h.contract(wire.SetContract{Lang: "de"})
	e := h.failure(h.send(wire.JobForgetSubmission, wire.ForgetSubmission{Submission: "s-unknown"}, nil))
	if e.Code != wire.CodeGone || !strings.Contains(e.Message, "s-unknown") || len(langtest.English(e.Message, "s-unknown")) > 0 {
		t.Errorf("the page got %+v: want gone, in German", e)
	}
}

// A connection setting the API client refuses is said in the page's
// language, naming what was typed.
func TestAConnectionSettingRefusedIsSaidInThePagesLanguage(t *testing.T) {
	h := newHarness(t)
	h.contract(wire.SetContract{Lang: "fr"})
	var got wire.AccessToken
	h.result(h.send(wire.JobAccessToken, wire.AccessTokenRequest{Identity: "CORPORATE:12a", Connection: wire.Connection{APIURL: "https://api.example", BackOfficeURL: "https://bo.example", APIKey: "k"}}, nil), &got)
	if f := got.Failure; f == nil || !strings.Contains(f.Summary, "identifiant d’identité") || !strings.Contains(f.Summary, "12a") {
		t.Errorf("the page got %+v: want the identity refused, in French", f)
	}
}

// The API's refusal to list its record of bulks is said by what it means,
// in the page's language, not by the client's error.
func TestARecordTheAPIRefusedIsSaidInThePagesLanguage(t *testing.T) {
	h := newHarness(t, withAPI(fakeapi.New()))
	h.contract(wire.SetContract{Lang: "de"})
	doc := h.load(fixture.Transfers(2))
	wrong := conn
	wrong.Token = "not-the-token"
	p := h.prepare(wire.PrepareSubmission{Document: doc.Document, Connection: &wrong})
	if p.Repeats == nil || !strings.Contains(p.Repeats.RecordError, "nicht angenommen") || len(langtest.English(p.Repeats.RecordError)) > 0 {
		t.Errorf("the page got %+v: want the refusal said in German", p.Repeats)
	}
}
