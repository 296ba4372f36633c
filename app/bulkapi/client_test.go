package bulkapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/schema"
)

const (
	testKey   = "key-0123456789"
	testToken = "token-abcdefghij"
)

// fakeAPI answers each call with the next scripted answer and records what
// it was sent.
type fakeAPI struct {
	answers []answer
	got     []seen
}

type answer struct {
	status int
	header map[string]string
	body   string
}

type seen struct {
	method, path, query string
	header              http.Header
	body                string
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.got = append(f.got, seen{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Clone(), string(body)})
	if len(f.answers) == 0 {
		http.Error(w, "no scripted answer", http.StatusTeapot)
		return
	}
	a := f.answers[0]
	f.answers = f.answers[1:]
	for k, v := range a.header {
		w.Header().Set(k, v)
	}
	w.WriteHeader(a.status)
	io.WriteString(w, a.body)
}

func newClient(t *testing.T, h http.Handler) *bulkapi.Client {
	t.Helper()
	c, err := bulkapi.New(bulkapi.Config{
		BaseURL:       "http://api.test/multi",
		BackOfficeURL: "http://api.test/multi/backoffice/",
		APIKey:        testKey,
		Token:         testToken,
		Transport:     bulkapi.HandlerTransport(h),
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSubmitSendsTheContractsRequest(t *testing.T) {
	api := &fakeAPI{answers: []answer{
		{201, map[string]string{"request-ref": "r1"}, `{"bulkId":"42","operationCount":2,"path":"/bulks/42"}`},
		{201, nil, `{"bulkId":"43","operationCount":1,"path":"/bulks/43"}`},
	}}
	c := newClient(t, api)
	kind, _ := schema.Lookup("transfers")
	body := []byte(`[{"requestBody":{}},{"requestBody":{}}]`)
	rc, err := c.Submit(context.Background(), kind, body, "ref-1")
	if err != nil {
		t.Fatal(err)
	}
	if *rc != (bulkapi.Receipt{BulkID: "42", OperationCount: 2, Path: "/bulks/42"}) {
		t.Errorf("receipt = %+v", rc)
	}
	g := api.got[0]
	if g.method != "POST" || g.path != "/multi/bulks/transfers" || g.body != string(body) {
		t.Errorf("sent %s %s %q", g.method, g.path, g.body)
	}
	for h, want := range map[string]string{"api-key": testKey, "Authorization": "Bearer " + testToken, "idempotency-ref": "ref-1", "Content-Type": "application/json"} {
		if got := g.header.Get(h); got != want {
			t.Errorf("header %s = %q, want %q", h, got, want)
		}
	}

	bo, err := c.BackOffice()
	if err != nil {
		t.Fatal(err)
	}
	spend, _ := schema.Lookup("card_spend_rules")
	if _, err := bo.Submit(context.Background(), spend, []byte(`[{}]`), "ref-2"); err != nil {
		t.Fatal(err)
	}
	if g := api.got[1]; g.method != "PATCH" || g.path != "/multi/backoffice/bulks/managed_cards/_id_/spend_rules" {
		t.Errorf("back-office submission went to %s %s", g.method, g.path)
	}
	blocks, _ := schema.Lookup("card_blocks")
	if _, err := bo.Submit(context.Background(), blocks, []byte(`[{}]`), "ref-3"); err == nil {
		t.Error("card_blocks has no back-office bulk, yet Submit accepted it")
	}
	if len(api.got) != 2 {
		t.Errorf("%d calls reached the API, want 2", len(api.got))
	}
}

func TestRefusalsCarryEverythingTheAPISaid(t *testing.T) {
	cases := []struct {
		name      string
		answer    answer
		class     bulkapi.Class
		retryable bool
		check     func(t *testing.T, e *bulkapi.Error)
	}{
		{"400 with syntax errors", answer{400, map[string]string{"request-ref": "rr-400"},
			`{"message":"bad elements","syntaxErrors":{"invalidFields":[{"fieldName":"[3].requestBody.destinationAmount.amount","error":"RANGE","params":["1"]},{"fieldName":"[7].requestBody.profileId","error":"REQUIRED"},{"fieldName":"request","error":"SIZE"}]}}`},
			bulkapi.ClassBadRequest, false, func(t *testing.T, e *bulkapi.Error) {
				if e.Message != "bad elements" || e.RequestRef != "rr-400" || len(e.InvalidFields) != 3 {
					t.Errorf("error = %+v", e)
				}
				by := e.Elements()
				if len(by[3]) != 1 || len(by[7]) != 1 || len(by[-1]) != 1 {
					t.Errorf("by element = %v", by)
				}
				if f := by[3][0]; f.Field() != "requestBody.destinationAmount.amount" || f.Params[0] != "1" {
					t.Errorf("field = %q params %v", f.Field(), f.Params)
				}
			}},
		{"400 back-office validation errors", answer{400, nil, `{"message":"no","validationErrors":[{"fieldName":"identity.id","error":"AT_LEAST","message":"too small"}]}`},
			bulkapi.ClassBadRequest, false, func(t *testing.T, e *bulkapi.Error) {
				if len(e.InvalidFields) != 1 || e.InvalidFields[0].Message != "too small" {
					t.Errorf("fields = %+v", e.InvalidFields)
				}
			}},
		{"401 without a body", answer{401, map[string]string{"request-ref": "rr-401"}, ``}, bulkapi.ClassCredentials, false, nil},
		{"403 with its code", answer{403, nil, `{"errorCode":"INSUFFICIENT_PERMISSIONS"}`}, bulkapi.ClassForbidden, false,
			func(t *testing.T, e *bulkapi.Error) {
				if e.Code != "INSUFFICIENT_PERMISSIONS" {
					t.Errorf("code = %q", e.Code)
				}
			}},
		{"404", answer{404, nil, `{"code":"NOT_FOUND","message":"no such bulk"}`}, bulkapi.ClassNotFound, false, nil},
		{"409 invalid state", answer{409, nil, `{"errorCode":"INVALID_STATE"}`}, bulkapi.ClassConflict, false, nil},
		{"409 too many requests", answer{409, nil, `{"errorCode":"TOO_MANY_REQUESTS"}`}, bulkapi.ClassConflict, true, nil},
		{"429 with its limits", answer{429, map[string]string{"x-ratelimit-limit": "20, 20;w=60", "x-ratelimit-reset": "7", "request-ref": "rr-429"}, ``},
			bulkapi.ClassRateLimited, true, func(t *testing.T, e *bulkapi.Error) {
				if e.RateLimit != "20, 20;w=60" || e.RateLimitReset != 7*time.Second {
					t.Errorf("limit %q reset %v", e.RateLimit, e.RateLimitReset)
				}
				if !strings.Contains(e.Error(), "rr-429") || !strings.Contains(e.Error(), "7s") {
					t.Errorf("message %q lacks the ref or the wait", e.Error())
				}
			}},
		{"500", answer{500, map[string]string{"request-ref": "rr-500"}, `<html>oops</html>`}, bulkapi.ClassServer, true, nil},
		{"503", answer{503, nil, ``}, bulkapi.ClassServer, true, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(t, &fakeAPI{answers: []answer{tc.answer}})
			_, err := c.Get(context.Background(), "12")
			e, ok := bulkapi.AsError(err)
			if !ok {
				t.Fatalf("err = %v (%T), want *bulkapi.Error", err, err)
			}
			if e.Status != tc.answer.status || e.Class() != tc.class || bulkapi.Retryable(err) != tc.retryable {
				t.Errorf("status %d class %s retryable %v", e.Status, e.Class(), bulkapi.Retryable(err))
			}
			if e.RequestRef != tc.answer.header["request-ref"] {
				t.Errorf("request-ref = %q", e.RequestRef)
			}
			if e.Method != "GET" || e.Path != "/bulks/12" {
				t.Errorf("call = %s %s", e.Method, e.Path)
			}
			if tc.check != nil {
				tc.check(t, e)
			}
		})
	}
}

type failingTransport struct{ err error }

func (f failingTransport) RoundTrip(*http.Request) (*http.Response, error) { return nil, f.err }

func TestTransportFailuresAreRetryableAndQuiet(t *testing.T) {
	c, err := bulkapi.New(bulkapi.Config{BaseURL: "http://api.test/multi", APIKey: testKey, Token: testToken,
		Transport: failingTransport{errors.New("connection reset by peer")}})
	if err != nil {
		t.Fatal(err)
	}
	kind, _ := schema.Lookup("sends")
	_, err = c.Submit(context.Background(), kind, []byte(`[{}]`), "ref")
	var te *bulkapi.TransportError
	if !errors.As(err, &te) || !bulkapi.Retryable(err) {
		t.Fatalf("err = %v (%T), want a retryable *TransportError", err, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = c.Submit(ctx, kind, []byte(`[{}]`), "ref")
	if bulkapi.Retryable(err) || !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled call gave %v, want context.Canceled and not retryable", err)
	}
}

func TestNoSecretInAnyText(t *testing.T) {
	api := &fakeAPI{answers: []answer{{400, nil, `{"message":"x"}`}}}
	c := newClient(t, api)
	_, err := c.List(context.Background(), bulkapi.ListQuery{})
	cfg := bulkapi.Config{APIKey: testKey, Token: testToken}
	tok := bulkapi.AccessToken{Token: testToken, Identity: bulkapi.Identity{Type: bulkapi.Corporate, ID: "1"}}
	for _, s := range []string{
		err.Error(), fmt.Sprint(c), fmt.Sprintf("%+v", c), fmt.Sprintf("%#v", c),
		fmt.Sprint(cfg), fmt.Sprintf("%+v", cfg), fmt.Sprintf("%#v", cfg),
		fmt.Sprint(tok), fmt.Sprintf("%#v", tok), fmt.Sprintf("%+v", &tok),
	} {
		if strings.Contains(s, testKey) || strings.Contains(s, testToken) {
			t.Errorf("text shows a secret: %s", s)
		}
	}
}

func TestPagingWalksEveryPage(t *testing.T) {
	var pages []answer
	for offset := 0; offset < 250; offset += 100 {
		var ops []bulkapi.Operation
		for i := offset; i < min(offset+100, 250); i++ {
			ops = append(ops, bulkapi.Operation{OperationID: strconv.Itoa(i), Sequence: i, Status: bulkapi.OpFailed})
		}
		b, _ := json.Marshal(bulkapi.OperationPage{Count: 250, ResponseCount: len(ops), Operations: ops})
		pages = append(pages, answer{200, nil, string(b)})
	}
	api := &fakeAPI{answers: pages}
	ops, err := newClient(t, api).AllOperations(context.Background(), "9", bulkapi.OpFailed)
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 250 || ops[249].Sequence != 249 {
		t.Fatalf("got %d operations", len(ops))
	}
	wantQ := []string{"limit=100&status=FAILED", "limit=100&offset=100&status=FAILED", "limit=100&offset=200&status=FAILED"}
	for i, g := range api.got {
		if g.path != "/multi/bulks/9/operations" || g.query != wantQ[i] {
			t.Errorf("page %d: %s?%s", i, g.path, g.query)
		}
	}

	// An API that reports more records than it ever sends ends the walk at
	// the first empty page instead of looping.
	api = &fakeAPI{answers: []answer{
		{200, nil, `{"count":5,"responseCount":1,"bulkProcesses":[{"bulkId":"1","status":"RUNNING"}]}`},
		{200, nil, `{"count":5,"responseCount":0,"bulkProcesses":[]}`},
	}}
	bulks, err := newClient(t, api).ListAll(context.Background(), bulkapi.Running)
	if err != nil || len(bulks) != 1 || len(api.got) != 2 || api.got[0].query != "limit=100&status=RUNNING" {
		t.Errorf("ListAll = %v, %v after %d calls", bulks, err, len(api.got))
	}
}

func TestActionsHitTheirEndpoints(t *testing.T) {
	api := &fakeAPI{}
	for range 5 {
		api.answers = append(api.answers, answer{204, nil, ""})
	}
	c := newClient(t, api)
	ctx := context.Background()
	if err := c.Execute(ctx, "77", bulkapi.ExecuteOptions{Mode: bulkapi.OnFailureStop, WebhookInterval: 10}); err != nil {
		t.Fatal(err)
	}
	for _, a := range []bulkapi.Action{bulkapi.Pause, bulkapi.Resume, bulkapi.Cancel, bulkapi.Execute} {
		if err := c.Do(ctx, "77", a); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"/multi/bulks/77/execute", "/multi/bulks/77/pause", "/multi/bulks/77/resume", "/multi/bulks/77/cancel", "/multi/bulks/77/execute"}
	for i, g := range api.got {
		if g.method != "POST" || g.path != want[i] {
			t.Errorf("call %d: %s %s", i, g.method, g.path)
		}
	}
	if api.got[0].body != `{"mode":"ON_FAILURE_STOP","webhookInterval":10}` || api.got[4].body != `{}` {
		t.Errorf("execute bodies %q, %q", api.got[0].body, api.got[4].body)
	}
	if err := c.Execute(ctx, "77", bulkapi.ExecuteOptions{Mode: "SOMETIMES"}); err == nil {
		t.Error("an unknown mode was sent")
	}
	if _, err := c.Get(ctx, "../users"); err == nil {
		t.Error("a bulk id with a path in it was sent")
	}
	if len(api.got) != 5 {
		t.Errorf("%d calls, want 5", len(api.got))
	}
}

func TestAccessTokenReadsBothAnswers(t *testing.T) {
	id := bulkapi.Identity{Type: bulkapi.Corporate, ID: "123"}
	api := &fakeAPI{answers: []answer{
		{200, nil, `{"token":"std-token","identity":{"type":"CORPORATE","id":"123"}}`},
		{200, nil, `{"token":{"token":"bo-token"},"identity":{"type":"CORPORATE","id":"123"}}`},
	}}
	c := newClient(t, api)
	tok, err := c.AccessToken(context.Background(), id)
	if err != nil || tok.Token != "std-token" || tok.Identity != id {
		t.Fatalf("standard token = %+v, %v", tok, err)
	}
	if h := api.got[0].header.Get("Authorization"); h != "Bearer "+testToken {
		t.Errorf("standard access_token sent Authorization %q", h)
	}
	bo, _ := c.BackOffice()
	tok, err = bo.AccessToken(context.Background(), id)
	if err != nil || tok.Token != "bo-token" {
		t.Fatalf("back-office token = %+v, %v", tok, err)
	}
	g := api.got[1]
	if g.path != "/multi/backoffice/access_token" || g.header.Get("Authorization") != "" || g.header.Get("api-key") != testKey {
		t.Errorf("back-office access_token: %s, Authorization %q", g.path, g.header.Get("Authorization"))
	}
	if g.body != `{"identity":{"type":"CORPORATE","id":"123"}}` {
		t.Errorf("body %s", g.body)
	}
	if _, err := bulkapi.ParseIdentity("corporate:12x"); err == nil {
		t.Error("ParseIdentity accepted a non-numeric id")
	}
	if got, err := bulkapi.ParseIdentity(" consumer : 45 "); err != nil || got != (bulkapi.Identity{Type: bulkapi.Consumer, ID: "45"}) {
		t.Errorf("ParseIdentity = %v, %v", got, err)
	}
}

func TestNewRefusesUnusableBaseURLs(t *testing.T) {
	for _, u := range []string{"", "/api", "ftp://x/y", "http://user:pw@x/multi", "http://x/multi?k=v"} {
		if _, err := bulkapi.New(bulkapi.Config{BaseURL: u}); err == nil {
			t.Errorf("New accepted base URL %q", u)
		}
	}
	c, err := bulkapi.New(bulkapi.Config{BaseURL: "http://x/multi"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.BackOffice(); err == nil {
		t.Error("BackOffice worked without a back-office URL")
	}
}
