package bulkapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/schema"
)

const (
	testKey   = "key-0123456789"
	testToken = "token-abcdefghij"
)

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
	api := &fakeapi.Script{Answers: []fakeapi.Answer{
		{Status: 201, Header: map[string]string{"request-ref": "r1"}, Body: `{"bulkId":"42","operationCount":2,"path":"/bulks/42"}`},
		{Status: 201, Body: `{"bulkId":"43","operationCount":1,"path":"/bulks/43"}`},
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
	g := api.Got[0]
	if g.Method != "POST" || g.Path != "/multi/bulks/transfers" || g.Body != string(body) {
		t.Errorf("sent %s %s %q", g.Method, g.Path, g.Body)
	}
	for h, want := range map[string]string{"api-key": testKey, "Authorization": "Bearer " + testToken, "idempotency-ref": "ref-1", "Content-Type": "application/json"} {
		if got := g.Header.Get(h); got != want {
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
	if g := api.Got[1]; g.Method != "PATCH" || g.Path != "/multi/backoffice/bulks/managed_cards/_id_/spend_rules" {
		t.Errorf("back-office submission went to %s %s", g.Method, g.Path)
	}
	blocks, _ := schema.Lookup("card_blocks")
	if _, err := bo.Submit(context.Background(), blocks, []byte(`[{}]`), "ref-3"); err == nil {
		t.Error("card_blocks has no back-office bulk, yet Submit accepted it")
	}
	if len(api.Got) != 2 {
		t.Errorf("%d calls reached the API, want 2", len(api.Got))
	}
}

func TestRefusalsCarryEverythingTheAPISaid(t *testing.T) {
	cases := []struct {
		name      string
		answer    fakeapi.Answer
		class     bulkapi.Class
		retryable bool
		check     func(t *testing.T, e *bulkapi.Error)
	}{
		{"400 with syntax errors", fakeapi.Answer{Status: 400, Header: map[string]string{"request-ref": "rr-400"}, Body: `{"message":"bad elements","syntaxErrors":{"invalidFields":[{"fieldName":"[3].requestBody.destinationAmount.amount","error":"RANGE","params":["1"]},{"fieldName":"[7].requestBody.profileId","error":"REQUIRED"},{"fieldName":"request","error":"SIZE"}]}}`},
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
		{"400 back-office validation errors", fakeapi.Answer{Status: 400, Body: `{"message":"no","validationErrors":[{"fieldName":"identity.id","error":"AT_LEAST","message":"too small"}]}`},
			bulkapi.ClassBadRequest, false, func(t *testing.T, e *bulkapi.Error) {
				if len(e.InvalidFields) != 1 || e.InvalidFields[0].Message != "too small" {
					t.Errorf("fields = %+v", e.InvalidFields)
				}
			}},
		{"401 without a body", fakeapi.Answer{Status: 401, Header: map[string]string{"request-ref": "rr-401"}, Body: ``}, bulkapi.ClassCredentials, false, nil},
		{"403 with its code", fakeapi.Answer{Status: 403, Body: `{"errorCode":"INSUFFICIENT_PERMISSIONS"}`}, bulkapi.ClassForbidden, false,
			func(t *testing.T, e *bulkapi.Error) {
				if e.Code != "INSUFFICIENT_PERMISSIONS" {
					t.Errorf("code = %q", e.Code)
				}
			}},
		{"404", fakeapi.Answer{Status: 404, Body: `{"code":"NOT_FOUND","message":"no such bulk"}`}, bulkapi.ClassNotFound, false, nil},
		{"409 invalid state", fakeapi.Answer{Status: 409, Body: `{"errorCode":"INVALID_STATE"}`}, bulkapi.ClassConflict, false, nil},
		{"409 too many requests", fakeapi.Answer{Status: 409, Body: `{"errorCode":"TOO_MANY_REQUESTS"}`}, bulkapi.ClassConflict, true, nil},
		{"429 with its limits", fakeapi.Answer{Status: 429, Header: map[string]string{"x-ratelimit-limit": "20, 20;w=60", "x-ratelimit-reset": "7", "request-ref": "rr-429"}, Body: ``},
			bulkapi.ClassRateLimited, true, func(t *testing.T, e *bulkapi.Error) {
				if e.RateLimit != "20, 20;w=60" || e.RateLimitReset != 7*time.Second {
					t.Errorf("limit %q reset %v", e.RateLimit, e.RateLimitReset)
				}
				if !strings.Contains(e.Error(), "rr-429") || !strings.Contains(e.Error(), "7s") {
					t.Errorf("message %q lacks the ref or the wait", e.Error())
				}
			}},
		{"500", fakeapi.Answer{Status: 500, Header: map[string]string{"request-ref": "rr-500"}, Body: `<html>oops</html>`}, bulkapi.ClassServer, true, nil},
		{"503", fakeapi.Answer{Status: 503, Body: ``}, bulkapi.ClassServer, true, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(t, &fakeapi.Script{Answers: []fakeapi.Answer{tc.answer}})
			_, err := c.Get(context.Background(), "12")
			e, ok := bulkapi.AsError(err)
			if !ok {
				t.Fatalf("err = %v (%T), want *bulkapi.Error", err, err)
			}
			if e.Status != tc.answer.Status || e.Class() != tc.class || bulkapi.Retryable(err) != tc.retryable {
				t.Errorf("status %d class %s retryable %v", e.Status, e.Class(), bulkapi.Retryable(err))
			}
			if e.RequestRef != tc.answer.Header["request-ref"] {
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
	kind, _ := schema.Lookup("sends")
	// A connection reset, and an API that never answers a client with a
	// timeout: both are transport failures a submission retries.
	for _, cfg := range []bulkapi.Config{
		{Transport: failingTransport{errors.New("connection reset by peer")}},
		{Transport: silentTransport{}, Timeout: 20 * time.Millisecond},
	} {
		cfg.BaseURL, cfg.APIKey, cfg.Token = "http://api.test/multi", testKey, testToken
		c, err := bulkapi.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Submit(context.Background(), kind, []byte(`[{}]`), "ref")
		var te *bulkapi.TransportError
		if !errors.As(err, &te) || !bulkapi.Retryable(err) {
			t.Fatalf("%T: err = %v (%T), want a retryable *TransportError", cfg.Transport, err, err)
		}
	}
	c, err := bulkapi.New(bulkapi.Config{BaseURL: "http://api.test/multi", APIKey: testKey, Token: testToken,
		Transport: failingTransport{errors.New("connection reset by peer")}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = c.Submit(ctx, kind, []byte(`[{}]`), "ref")
	if bulkapi.Retryable(err) || !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled call gave %v, want context.Canceled and not retryable", err)
	}
}

func TestNoSecretInAnyText(t *testing.T) {
	api := &fakeapi.Script{Answers: []fakeapi.Answer{{Status: 400, Body: `{"message":"x"}`}}}
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
	var pages []fakeapi.Answer
	for offset := 0; offset < 250; offset += 100 {
		var ops []bulkapi.Operation
		for i := offset; i < min(offset+100, 250); i++ {
			ops = append(ops, bulkapi.Operation{OperationID: strconv.Itoa(i), Sequence: i, Status: bulkapi.OpFailed})
		}
		b, _ := json.Marshal(bulkapi.OperationPage{Count: 250, ResponseCount: len(ops), Operations: ops})
		pages = append(pages, fakeapi.Answer{Status: 200, Body: string(b)})
	}
	api := &fakeapi.Script{Answers: pages}
	ops, err := newClient(t, api).AllOperations(context.Background(), "9", bulkapi.OpFailed)
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 250 || ops[249].Sequence != 249 {
		t.Fatalf("got %d operations", len(ops))
	}
	wantQ := []string{"limit=100&status=FAILED", "limit=100&offset=100&status=FAILED", "limit=100&offset=200&status=FAILED"}
	for i, g := range api.Got {
		if g.Path != "/multi/bulks/9/operations" || g.Query != wantQ[i] {
			t.Errorf("page %d: %s?%s", i, g.Path, g.Query)
		}
	}

	// An API that reports more records than it ever sends ends the walk at
	// the first empty page instead of looping.
	api = &fakeapi.Script{Answers: []fakeapi.Answer{
		{Status: 200, Body: `{"count":5,"responseCount":1,"bulkProcesses":[{"bulkId":"1","status":"RUNNING"}]}`},
		{Status: 200, Body: `{"count":5,"responseCount":0,"bulkProcesses":[]}`},
	}}
	bulks, err := newClient(t, api).ListAll(context.Background(), bulkapi.Running)
	if err != nil || len(bulks) != 1 || len(api.Got) != 2 || api.Got[0].Query != "limit=100&status=RUNNING" {
		t.Errorf("ListAll = %v, %v after %d calls", bulks, err, len(api.Got))
	}
}

func TestActionsHitTheirEndpoints(t *testing.T) {
	api := &fakeapi.Script{}
	for range 5 {
		api.Answers = append(api.Answers, fakeapi.Answer{Status: 204, Body: ""})
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
	for i, g := range api.Got {
		if g.Method != "POST" || g.Path != want[i] {
			t.Errorf("call %d: %s %s", i, g.Method, g.Path)
		}
	}
	if api.Got[0].Body != `{"mode":"ON_FAILURE_STOP","webhookInterval":10}` || api.Got[4].Body != `{}` {
		t.Errorf("execute bodies %q, %q", api.Got[0].Body, api.Got[4].Body)
	}
	if err := c.Execute(ctx, "77", bulkapi.ExecuteOptions{Mode: "SOMETIMES"}); err == nil {
		t.Error("an unknown mode was sent")
	}
	if _, err := c.Get(ctx, "../users"); err == nil {
		t.Error("a bulk id with a path in it was sent")
	}
	if len(api.Got) != 5 {
		t.Errorf("%d calls, want 5", len(api.Got))
	}
}

func TestAccessTokenReadsBothAnswers(t *testing.T) {
	id := bulkapi.Identity{Type: bulkapi.Corporate, ID: "123"}
	api := &fakeapi.Script{Answers: []fakeapi.Answer{
		{Status: 200, Body: `{"token":"std-token","identity":{"type":"CORPORATE","id":"123"}}`},
		{Status: 200, Body: `{"token":{"token":"bo-token"},"identity":{"type":"CORPORATE","id":"123"}}`},
	}}
	c := newClient(t, api)
	tok, err := c.AccessToken(context.Background(), id)
	if err != nil || tok.Token != "std-token" || tok.Identity != id {
		t.Fatalf("standard token = %+v, %v", tok, err)
	}
	if h := api.Got[0].Header.Get("Authorization"); h != "Bearer "+testToken {
		t.Errorf("standard access_token sent Authorization %q", h)
	}
	bo, _ := c.BackOffice()
	tok, err = bo.AccessToken(context.Background(), id)
	if err != nil || tok.Token != "bo-token" {
		t.Fatalf("back-office token = %+v, %v", tok, err)
	}
	g := api.Got[1]
	if g.Path != "/multi/backoffice/access_token" || g.Header.Get("Authorization") != "" || g.Header.Get("api-key") != testKey {
		t.Errorf("back-office access_token: %s, Authorization %q", g.Path, g.Header.Get("Authorization"))
	}
	if g.Body != `{"identity":{"type":"CORPORATE","id":"123"}}` {
		t.Errorf("body %s", g.Body)
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

// silentTransport never answers: it waits for the call's context.
type silentTransport struct{}

func (silentTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	<-r.Context().Done()
	return nil, r.Context().Err()
}
