package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
)

// forged is what a hostile file, cell, answer or event holds: it moves
// the cursor up, erases the line, returns to its start and writes a
// verdict of its own; then reverses the text that follows, and sends a
// C1 control sequence introducer.
const forged = "pay.csv\x1b[1A\x1b[2K\rmatches: every element is valid and nothing differs\n\u202eok\u009b2J\x07"

// rawControl names the first character of s a terminal would act on
// rather than show, other than newline and tab; "" when there is none.
func rawControl(s string) string {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\n', r == '\t':
		case r < 0x20, r >= 0x7f && r <= 0x9f, r == utf8.RuneError && n == 1,
			r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x2028, r == 0x2029:
			return fmt.Sprintf("%q at byte %d of %q", s[i:i+n], i, s)
		}
		i += n
	}
	return ""
}

// assertShown fails when out holds a raw control character, or a line the
// hostile text made its own.
func assertShown(t *testing.T, what, out string) {
	t.Helper()
	if c := rawControl(out); c != "" {
		t.Errorf("%s: raw control character %s", what, c)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "matches:") || strings.HasPrefix(line, "\u202e") || strings.HasPrefix(line, `\u202eok`) {
			t.Errorf("%s: a line of the hostile text's own: %q", what, line)
		}
	}
}

// fakeAPIServer serves h on 127.0.0.1 with the fake API's credentials.
func fakeAPIServer(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") {
		t.Fatalf("the test server listens at %s", srv.URL)
	}
	t.Setenv(envAPIKey, fakeapi.Key)
	t.Setenv(envToken, fakeapi.Token)
	t.Setenv(envJournal, filepath.Join(t.TempDir(), "journal.db"))
	return srv.URL + "/multi"
}

// A maker's receipt whose fields hold escape sequences cannot draw a
// "matches" line over the review's verdict on the checker's terminal.
func TestReviewShowsAReceiptsControlCharacters(t *testing.T) {
	api := fakeapi.New()
	url := fakeAPIServer(t, api)
	id := api.Add(bulkapi.Submitted, time.Time{},
		`{"profileId":"110321","source":{"type":"managed_accounts","id":"1000000"},"destination":{"type":"managed_cards","id":"2000000"},"destinationAmount":{"currency":"EUR","amount":100}}`)
	receipt, err := json.Marshal(map[string]any{
		"version": 1, "kind": "transfers", "api": "standard", "file": forged, "submission": forged,
		"reading": []string{forged}, "submittedBy": forged, "submittedAt": "2026-01-05T10:00:00Z", "elements": 1,
		"chunks": []any{
			map[string]any{"chunk": 1, "bulkId": id, "elements": 1, "sha256": "0", "sources": []any{map[string]any{"source": forged, "count": 1}}},
			map[string]any{"chunk": 2, "bulkId": forged, "elements": 1, "sha256": "0"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	path := writeFile(t, "receipt\x1b[2K\r.json", string(receipt))
	code, out, errOut := runCLI(t, "bulks", "review", "-api-url", url, "-timeout", "10s", "-receipt", path, id)
	if code != exitInvalid || !strings.Contains(out, `receipt: pay.csv\x1b[1A\x1b[2K\rmatches: every element is valid and nothing differs\n\u202eok\u009b2J\x07, submission`) ||
		!strings.HasSuffix(out, "\nDOES NOT MATCH: do not execute before the differences are explained\n") {
		t.Errorf("review: %d\n%s\n%s", code, out, errOut)
	}
	assertShown(t, "review", out+errOut)

	// The same in JSON: escaped, and read back as the receipt wrote it.
	code, out, errOut = runCLI(t, "bulks", "review", "-api-url", url, "-timeout", "10s", "-receipt", path, "-format", "json", id)
	var rv reviewJSON
	if err := json.Unmarshal([]byte(out), &rv); err != nil || code != exitInvalid || rv.Receipt != path || !slices.ContainsFunc(rv.Differences, func(d bulkreview.Difference) bool { return strings.Contains(d.Text, forged) }) {
		t.Errorf("review -format json: %d %v\n%s\n%s", code, err, out, errOut)
	}
	assertShown(t, "review -format json", out+errOut)

	// A receipt that cannot be read names its file.
	bad := writeFile(t, "bad\x1b[2K\r.json", `{"version":1,"kind":"transfers","api":"`+strings.ReplaceAll(forged, "\n", `\n`)+`"}`)
	code, out, errOut = runCLI(t, "bulks", "review", "-api-url", url, "-timeout", "10s", "-receipt", bad, id)
	if code != exitUsage || !strings.Contains(errOut, `bad\x1b[2K\r.json`) {
		t.Errorf("unreadable receipt: %d %s", code, errOut)
	}
	assertShown(t, "unreadable receipt", out+errOut)
}

// A file's name, its cells and its sheet names reach the report escaped.
func TestCheckShowsAFilesControlCharacters(t *testing.T) {
	cell := strings.ReplaceAll(forged, ";", ",")
	file := writeFile(t, "pay\x1b[2K\r.csv", transfersHeader+transferLine(1, "12.50")+
		"110321;1001;managed_accounts;2002;managed_cards;EU\x1b[2KR;"+cell+";"+cell+"\n")
	code, out, errOut := runCLI(t, "check", "-kind", "transfers", file)
	if code != exitInvalid || !strings.Contains(out, `pay\x1b[2K\r.csv: transfers, INVALID`) || !strings.Contains(out, "EU␛[2KR") {
		t.Errorf("check: %d\n%s\n%s", code, out, errOut)
	}
	assertShown(t, "check", out+errOut)
	code, out, errOut = runCLI(t, "check", "-kind", "transfers", "-format", "json", file)
	var report jsonReport
	if err := json.Unmarshal([]byte(out), &report); err != nil || code != exitInvalid || report.Source == nil || report.Source.File != filepath.Base(file) {
		t.Errorf("check -format json: %d %v\n%s\n%s", code, err, out, errOut)
	}
	assertShown(t, "check -format json", out+errOut)

	sheet := "Pay\x1b\r\u202e" // ESC cannot be written in XML: the workbook holds U+FFFD
	book := writeWorkbook(t, map[string][][]any{sheet: {
		{"profileId", "source.id", "source.type", "destination.id", "destination.type", "currency", "amount", "description"},
		{"110321", "1001", "managed_accounts", "2001", "managed_cards", "EUR", forged, forged},
	}}, sheet)
	code, out, errOut = runCLI(t, "check", "-kind", "transfers", book)
	if code != exitInvalid || !strings.Contains(out, `\r\u202e`) {
		t.Errorf("check of a workbook: %d\n%s\n%s", code, out, errOut)
	}
	assertShown(t, "check of a workbook", out+errOut)
	code, out, errOut = runCLI(t, "check", "-kind", "transfers", "-sheet", "Other\x1b[2K", book)
	assertShown(t, "check of a sheet that is not there", out+errOut)
	if code != exitUsage {
		t.Errorf("no such sheet: %d %s", code, errOut)
	}
}

// The API's refusals, as submit, bulks and journal print them.
func TestAPIAnswersAreShownEscaped(t *testing.T) {
	answer, _ := json.Marshal(map[string]any{"message": forged, "errorCode": forged,
		"syntaxErrors": map[string]any{"invalidFields": []any{map[string]any{"fieldName": "[0]." + forged, "error": forged, "params": []string{forged}}}}})
	api := fakeapi.New()
	api.Refuse = func(int, []byte) (int, string) { return http.StatusBadRequest, string(answer) }
	url := fakeAPIServer(t, api)
	file := writeFile(t, "pay\x1b[2K\r.json", string(fixture.SampleBody(2)))
	code, out, errOut := runCLI(t, "submit", "-kind", "transfers", "-api-url", url, "-timeout", "10s", file)
	if code != exitInvalid || !strings.Contains(errOut, `pay.csv\x1b[1A\x1b[2K\rmatches`) {
		t.Errorf("submit: %d\n%s\n%s", code, out, errOut)
	}
	assertShown(t, "submit", out+errOut)
	code, out, errOut = runCLI(t, "journal", "list")
	if code != exitOK || !strings.Contains(out, `pay\x1b[2K\r.json`) {
		t.Errorf("journal list: %d\n%s\n%s", code, out, errOut)
	}
	assertShown(t, "journal list", out+errOut)

	id := api.Add(bulkapi.Submitted, time.Time{}, `{"profileId":"110321"}`)
	api.SetOperation(id, forged)
	code, out, errOut = runCLI(t, "bulks", "list", "-api-url", url, "-timeout", "10s")
	if code != exitOK || !strings.Contains(out, `\x1b[1A`) {
		t.Errorf("bulks list: %d\n%s\n%s", code, out, errOut)
	}
	assertShown(t, "bulks list", out+errOut)

	script := &fakeapi.Script{Answers: []fakeapi.Answer{{Status: http.StatusConflict, Body: string(answer)}}}
	url = fakeAPIServer(t, script)
	code, out, errOut = runCLI(t, "bulks", "get", "-api-url", url, "-timeout", "10s", "501")
	if code != exitInvalid || !strings.Contains(errOut, `matches: every element is valid and nothing differs\n\u202eok`) {
		t.Errorf("bulks get: %d\n%s\n%s", code, out, errOut)
	}
	assertShown(t, "bulks get", out+errOut)
}

// A webhook event's headers and a receiver's answer reach the terminal
// escaped.
func TestWebhookEventsAreShownEscaped(t *testing.T) {
	t.Setenv("TEST_WEBHOOK_KEY", "k")
	headers := writeFile(t, "headers.txt", "call-ref: "+strings.ReplaceAll(forged, "\n", " ")+"\npublished-timestamp: \x1b[2K1700000000000\nsignature: \x1b[1A\rbad\nsignature-v2: \u202ebad\n")
	body := writeFile(t, "body.json", `{"bulkId":"`+strings.ReplaceAll(forged, "\n", `\n`)+`"}`)
	for _, format := range []string{"text", "json"} {
		code, out, errOut := runCLI(t, "webhook", "verify", "-key-env", "TEST_WEBHOOK_KEY", "-headers", headers, "-body", body, "-skip-clock", "-format", format)
		if code != exitInvalid {
			t.Errorf("verify -format %s: %d\n%s\n%s", format, code, out, errOut)
		}
		assertShown(t, "webhook verify -format "+format, out+errOut)
	}

	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, forged)
	}))
	t.Cleanup(receiver.Close)
	code, out, errOut := runCLI(t, "webhook", "send", "-key-env", "TEST_WEBHOOK_KEY", "-url", receiver.URL, "-type", "/bulk_process_end/watch", "-body", body, "-timeout", "10s")
	if code != exitInvalid || !strings.Contains(errOut, `\x1b[1A\x1b[2K\rmatches`) {
		t.Errorf("webhook send: %d\n%s\n%s", code, out, errOut)
	}
	assertShown(t, "webhook send", out+errOut)
}
