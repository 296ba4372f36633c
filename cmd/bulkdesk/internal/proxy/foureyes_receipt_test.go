//go:build !js

package proxy_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/memstore"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/auth"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/proxy"
	"github.com/bulkdesk/bulkdesk/schema"
)

// cliReceipt submits body whole to a fake API as "bulkdesk submit
// -receipt" does, and returns the receipt it writes and the body it sent.
func cliReceipt(t testing.TB, body []byte) (*bulkreview.Receipt, []byte) {
	t.Helper()
	k, _ := schema.Lookup("transfers")
	doc, _, err := schema.DecodeJSON(body)
	if err != nil {
		t.Fatal(err)
	}
	elements := doc.([]any)
	plan, err := submission.NewPlan(k, elements, submission.PlanOptions{Source: "pay.json"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s := &submission.Submitter{Sender: fakeapi.Client(fakeapi.New()), Journal: memstore.NewJournal()}
	entries, err := s.Submit(ctx, plan)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := bulkreview.NewReceipt(plan, entries, elements, bulkreview.Declared{SubmittedBy: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	return rc, plan.Chunks[0].Body
}

// ruledProxy is the proxy with a rule on a file of its own in front of
// the API at upstream (its /multi and /multi/backoffice), behind header
// sign-in from 127.0.0.1; f sends calls through it.
func ruledProxy(t *testing.T, upstream string, allowUnknown bool) (store *approvals.Store, f *fourEyesAPI) {
	t.Helper()
	store, err := approvals.Open(t.TempDir(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	rule := &approvals.Rule{Records: store, AllowUnknown: allowUnknown}
	t.Cleanup(rule.Close)
	h, err := proxy.New(proxy.Config{APIURL: upstream + "/multi", BackOfficeURL: upstream + "/multi/backoffice", FourEyes: rule})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(auth.Header(auth.DefaultHeader, []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}, h))
	t.Cleanup(srv.Close)
	return store, &fourEyesAPI{url: srv.URL, api: fakeapi.New()}
}

// withFileName names the file submitted, as the console does.
func withFileName(v string) func(*http.Request) {
	return func(r *http.Request) { r.Header.Set(bulkapi.HeaderFileName, v) }
}

func created(t *testing.T, status int, body string) string {
	t.Helper()
	var c struct {
		BulkID string `json:"bulkId"`
	}
	if status != http.StatusCreated || json.Unmarshal([]byte(body), &c) != nil || c.BulkID == "" {
		t.Fatalf("submitting: %d %q", status, body)
	}
	return c.BulkID
}

// TestFourEyesKeepsTheReceiptOfWhatItPassesOn: the receipt the server
// computes of a submission through the proxy is the one the CLI writes
// of the same body: the same hashes, count and totals.
func TestFourEyesKeepsTheReceiptOfWhatItPassesOn(t *testing.T) {
	f := startFourEyes(t, false)
	want, body := cliReceipt(t, fixture.Salary("pay.json").Body(250))
	status, answer := f.do(t, "alice", "POST", "/api/bulks/transfers", string(body), withFileName("L%C3%B6hne%20M%C3%A4rz%202026%2B.xlsx"))
	id := created(t, status, answer)

	rc, found, err := f.rule.Receipt(id)
	if err != nil || !found {
		t.Fatalf("the receipt of bulk %s: %v, %v", id, found, err)
	}
	got, wantChunk := rc.Chunks[0], want.Chunks[0]
	if len(rc.Chunks) != 1 || got.SHA256 != wantChunk.SHA256 || got.SentSHA256 != wantChunk.SentSHA256 || got.Elements != 250 || got.BulkID != id ||
		!reflect.DeepEqual(got.Totals, wantChunk.Totals) || !reflect.DeepEqual(got.Sources, wantChunk.Sources) ||
		!reflect.DeepEqual(rc.Totals, want.Totals) || !reflect.DeepEqual(rc.Sources, want.Sources) || rc.Elements != want.Elements || len(rc.Sources) != 97 {
		t.Errorf("the server's receipt:\n%+v\nthe CLI's:\n%+v", got, wantChunk)
	}
	rec, _, _ := f.rule.Records.Get(id)
	if rc.Kind != "transfers" || rc.API != bulkreview.Standard || rc.File != "Löhne März 2026+.xlsx" || rc.SubmittedBy != "alice" || !rc.SubmittedAt.Equal(rec.SubmittedAt) {
		t.Errorf("the receipt names %q %q %q %q %s", rc.Kind, rc.API, rc.File, rc.SubmittedBy, rc.SubmittedAt)
	}
	if rec.Kind != "transfers" || rec.FileName != "Löhne März 2026+.xlsx" || rec.Elements != 250 || !reflect.DeepEqual(rec.Totals, want.Totals) {
		t.Errorf("the record: %+v", rec)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, h := range f.headers {
		if v := h.Values(bulkapi.HeaderFileName); len(v) > 0 {
			t.Errorf("the API was sent %s: %q", bulkapi.HeaderFileName, v)
		}
	}
}

func TestFourEyesNamesTheKindFromThePath(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, `{"bulkId":"b`+strings.ReplaceAll(r.URL.Path, "/", "-")+`"}`)
	}))
	defer upstream.Close()
	store, f := ruledProxy(t, upstream.URL, false)
	for _, c := range []struct {
		method, path, body string
		kind, api          string // "" kind: no receipt
	}{
		{"POST", "/api/bulks/transfers", `[{"requestBody":{"destinationAmount":{"currency":"EUR","amount":5}}}]`, "transfers", bulkreview.Standard},
		{"POST", "/backoffice/bulks/transfers", `[{"requestBody":{}}]`, "transfers", bulkreview.BackOffice},
		{"POST", "/api/backoffice/bulks/transfers", `[{"requestBody":{}}]`, "transfers", bulkreview.BackOffice},
		{"PATCH", "/backoffice/bulks/managed_cards/_id_/spend_rules", `[{"pathParams":{"_id_":"7"},"requestBody":{}}]`, "card_spend_rules", bulkreview.BackOffice},
		{"POST", "/api/BULKS/managed_cards/_id_/block", `[{"pathParams":{"_id_":"7"}}]`, "card_blocks", bulkreview.Standard},
		{"POST", "/api/bulks/nothing_known", `[{}]`, "", ""},
		{"POST", "/api/bulks/users", `not JSON`, "users", ""},
	} {
		status, answer := f.do(t, "alice", c.method, c.path, c.body)
		id := created(t, status, answer)
		rec, _, err := store.Get(id)
		rc, found, _ := store.Receipt(id)
		switch {
		case err != nil || rec.SubmittedBy != "alice" || rec.Kind != c.kind:
			t.Errorf("%s %s: the record %+v, %v", c.method, c.path, rec, err)
		case c.api == "" && found:
			t.Errorf("%s %s: a receipt %+v", c.method, c.path, rc)
		case c.api != "" && (!found || rc.Kind != c.kind || rc.API != c.api || rc.Elements != 1 || rc.Chunks[0].SentSHA256 != bulkreview.SHA256([]byte(c.body))):
			t.Errorf("%s %s: the receipt %+v, %v", c.method, c.path, rc, found)
		}
	}
}

func TestFourEyesRefusesAFileNameThatIsNoName(t *testing.T) {
	f := startFourEyes(t, false)
	for _, name := range []string{"pay%0Aroll.xlsx", "%E2%80%AEslx.exe", "%FF.xlsx", "50%", strings.Repeat("x", 256)} {
		status, body := f.do(t, "alice", "POST", "/api/bulks/transfers", `[{"requestBody":{}}]`, withFileName(name))
		if status != http.StatusBadRequest || !strings.Contains(body, bulkapi.HeaderFileName) {
			t.Errorf("%.20q: %d %q", name, status, body)
		}
	}
	twice := func(r *http.Request) {
		r.Header.Add(bulkapi.HeaderFileName, "a.xlsx")
		r.Header.Add(bulkapi.HeaderFileName, "b.xlsx")
	}
	if status, _ := f.do(t, "alice", "POST", "/api/bulks/transfers", `[{"requestBody":{}}]`, twice); status != http.StatusBadRequest {
		t.Errorf("named twice: %d", status)
	}
	if n := f.api.Bulks(); n != 0 {
		t.Errorf("%d refused submissions reached the API", n)
	}
	// 255 bytes, once decoded, is a name.
	name := strings.Repeat("ä", 127) + "x"
	status, answer := f.do(t, "alice", "POST", "/api/bulks/transfers", `[{"requestBody":{}}]`, withFileName(strings.ReplaceAll(name, "ä", "%C3%A4")))
	id := created(t, status, answer)
	if rec, _, _ := f.rule.Records.Get(id); rec.FileName != name {
		t.Errorf("recorded as %q", rec.FileName)
	}
}

func TestFourEyesARefusedSubmissionKeepsNoReceipt(t *testing.T) {
	f := startFourEyes(t, false)
	f.api.RefuseNext(1)
	if status, body := f.do(t, "alice", "POST", "/api/bulks/transfers", `[{"requestBody":{}}]`, withFileName("pay.json")); status != http.StatusBadRequest {
		t.Fatalf("a refused submission: %d %q", status, body)
	}
	// The id the refused one would have had.
	if rc, found, err := f.rule.Receipt(strconv.Itoa(fakeapi.FirstBulkID)); err != nil || found {
		t.Errorf("a receipt of the refused submission: %+v, %v", rc, err)
	}
	if recs, err := f.rule.Awaiting(approvals.Page{Limit: 10}); err != nil || len(recs) != 0 {
		t.Errorf("queued: %+v, %v", recs, err)
	}
}

func TestFourEyesRecordsAnAcceptedCancellation(t *testing.T) {
	f := startFourEyes(t, false)
	kept, cancelled := f.submit(t, "alice", "/api"), f.submit(t, "alice", "/api")
	f.refuseCancels.Store(true)
	if status, _ := f.do(t, "bob", "POST", "/api/bulks/"+cancelled+"/cancel", ""); status != http.StatusConflict {
		t.Fatalf("a refused cancellation: %d", status)
	}
	if rec, _, _ := f.rule.Records.Get(cancelled); rec.State() != approvals.StateAwaiting {
		t.Errorf("recorded as %s though the API refused it", rec.State())
	}
	f.refuseCancels.Store(false)
	if status, _ := f.do(t, "bob", "POST", "/api/BULKS/"+cancelled+"/Cancel/", ""); status != http.StatusNoContent {
		t.Fatalf("cancelling: %d", status)
	}
	if rec, _, _ := f.rule.Records.Get(cancelled); rec.State() != approvals.StateCancelled || rec.CancelledBy != "bob" {
		t.Errorf("the cancelled bulk: %+v", rec)
	}
	if recs, err := f.rule.Awaiting(approvals.Page{Limit: 10}); err != nil || len(recs) != 1 || recs[0].BulkID != kept {
		t.Errorf("queued: %+v, %v; want %s alone", recs, err, kept)
	}
}

// onceBody is a request body that counts what is read of it, and fails
// the test if it is read again after its end.
type onceBody struct {
	t    testing.TB
	r    io.Reader
	read int
	ends int
}

func (b *onceBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.read += n
	if err == io.EOF {
		if b.ends++; b.ends > 1 && n == 0 {
			b.t.Error("the body was read again after its end")
		}
	}
	return n, err
}

// TestFourEyesHashesABigBodyAsItPasses: a submission of 10,000 transfers
// is read once, and its receipt is that of the bytes the API received.
func TestFourEyesHashesABigBodyAsItPasses(t *testing.T) {
	f := startFourEyes(t, false)
	_, body := cliReceipt(t, fixture.Salary("big.json").Body(schema.MaxElements))
	req := httptest.NewRequest("POST", "/api/bulks/transfers", nil)
	in := &onceBody{t: t, r: strings.NewReader(string(body))}
	req.Body, req.ContentLength, req.RemoteAddr = io.NopCloser(in), int64(len(body)), "127.0.0.1:1234"
	req.Header.Set(auth.DefaultHeader, "alice")
	req.Header.Set("api-key", secretKey)
	req.Header.Set("Authorization", "Bearer "+secretToken)
	rec := httptest.NewRecorder()
	f.h.ServeHTTP(rec, req)
	id := created(t, rec.Code, rec.Body.String())
	if in.read != len(body) {
		t.Errorf("read %d bytes of a body of %d", in.read, len(body))
	}
	rc, found, err := f.rule.Receipt(id)
	if err != nil || !found || rc.Elements != schema.MaxElements || rc.Chunks[0].SentSHA256 != bulkreview.SHA256(body) {
		t.Fatalf("the receipt: %v, %v", found, err)
	}
	// The API made its bulk of the same bytes: its review matches.
	cl, err := bulkapi.New(bulkapi.Config{BaseURL: "http://api.test/multi", APIKey: secretKey, Token: secretToken, Transport: bulkapi.HandlerTransport(f.api)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rv, err := bulkreview.Fetch(ctx, cl, id, bulkreview.Options{Validator: fixture.Validator()})
	if err != nil {
		t.Fatal(err)
	}
	if d := bulkreview.Compare(rc, rv); len(d) != 0 {
		t.Errorf("the bulk differs from the server's receipt: %v", d)
	}
}

// TestFourEyesABulkRunAroundTheServerLeavesTheQueueOnceRead: a bulk
// executed at the API directly stays queued until a read of it through
// the proxy says it runs.
func TestFourEyesABulkRunAroundTheServerLeavesTheQueueOnceRead(t *testing.T) {
	f := startFourEyes(t, false)
	around, waiting := f.submit(t, "alice", "/api"), f.submit(t, "alice", "/api")
	direct, err := bulkapi.New(bulkapi.Config{BaseURL: "http://api.test/multi", APIKey: secretKey, Token: secretToken, Transport: bulkapi.HandlerTransport(f.api)})
	if err != nil {
		t.Fatal(err)
	}
	if err := direct.Execute(context.Background(), around, bulkapi.ExecuteOptions{}); err != nil {
		t.Fatal(err)
	}
	queued := func() []string {
		t.Helper()
		recs, err := f.rule.Awaiting(approvals.Page{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, r := range recs {
			ids = append(ids, r.BulkID)
		}
		return ids
	}
	if got := queued(); len(got) != 2 {
		t.Fatalf("queued before anyone looked: %v", got)
	}
	for _, id := range []string{waiting, around} {
		if status, body := f.do(t, "bob", "GET", "/api/bulks/"+id, ""); status != http.StatusOK || !strings.Contains(body, `"bulkId":"`+id+`"`) {
			t.Fatalf("reading bulk %s: %d %q", id, status, body)
		}
	}
	if got := queued(); len(got) != 1 || got[0] != waiting {
		t.Errorf("queued once read: %v; want %s alone", got, waiting)
	}
	rec, _, _ := f.rule.Records.Get(around)
	if rec.State() != approvals.StateExecuted || rec.APIStatus == "" || rec.ExecutedBy != "" {
		t.Errorf("the bulk run around the server: %+v", rec)
	}
}
