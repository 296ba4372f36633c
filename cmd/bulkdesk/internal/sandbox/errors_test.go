package sandbox_test

import (
	"bytes"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
	"github.com/bulkdesk/bulkdesk/schema"
)

func TestABadElementIsRefusedWithSyntaxErrorsNamingIt(t *testing.T) {
	h := mustServe(t, sandbox.Config{})
	body := bytes.Replace(fixture.SampleBody(5), []byte(`"currency":"EUR","amount":102`), []byte(`"currency":"euro","amount":-1`), 1)
	body = bytes.Replace(body, []byte(`"profileId":"110321","tag":"sample-5"`), []byte(`"tag":"sample-5"`), 1)
	_, err := h.client.Submit(ctx(t), transfers, body, "ref-bad")
	e := apiError(t, err, 400)
	by := e.Elements()
	if len(by[2]) != 2 || len(by[4]) != 1 || len(by) != 2 {
		t.Fatalf("syntax errors by element: %v", by)
	}
	if f := by[4][0]; f.Field() != "requestBody.profileId" || f.Error != "REQUIRED" {
		t.Errorf("element 4: %v", f)
	}
	for _, f := range by[2] {
		if f.Field() != "requestBody.destinationAmount.currency" && f.Field() != "requestBody.destinationAmount.amount" {
			t.Errorf("element 2: %v", f)
		}
	}
	if !strings.Contains(e.Message, "2 of 5") {
		t.Errorf("message %q", e.Message)
	}
	if list, _ := h.client.List(ctx(t), bulkapi.ListQuery{}); list.Count != 0 {
		t.Errorf("a refused request created %d bulks", list.Count)
	}
}

func TestTheTenThousandLimit(t *testing.T) {
	h := mustServe(t, sandbox.Config{})
	_, err := h.client.Submit(ctx(t), transfers, fixture.SampleBody(schema.MaxElements+1), "")
	e := apiError(t, err, 400)
	if len(e.InvalidFields) != 1 || e.InvalidFields[0].Error != "SIZE" {
		t.Errorf("fields %v", e.InvalidFields)
	}
	rc, err := h.client.Submit(ctx(t), transfers, fixture.SampleBody(schema.MaxElements), "")
	if err != nil || rc.OperationCount != schema.MaxElements {
		t.Fatalf("10,000 elements: %v, %v", rc, err)
	}
	_, err = h.client.Submit(ctx(t), transfers, []byte(`[]`), "")
	apiError(t, err, 400)
	_, err = h.client.Submit(ctx(t), transfers, []byte(`{"a":1}`), "")
	apiError(t, err, 400)
}

func TestCredentialsAreChecked(t *testing.T) {
	h := mustServe(t, sandbox.Config{})
	id := h.submit(t, 1)
	for name, c := range map[string]*bulkapi.Client{
		"wrong api-key": mustClient(t, h, "nope", token),
		"no api-key":    mustClient(t, h, "", token),
		"wrong token":   mustClient(t, h, key, "nope"),
		"no token":      mustClient(t, h, key, ""),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := c.Get(ctx(t), id)
			e := apiError(t, err, 401)
			if e.Class() != bulkapi.ClassCredentials {
				t.Errorf("class %s", e.Class())
			}
			_, err = c.Submit(ctx(t), transfers, fixture.SampleBody(1), "")
			apiError(t, err, 401)
		})
	}
}

func mustClient(t *testing.T, h *harness, apiKey, tok string) *bulkapi.Client {
	c, err := bulkapi.New(bulkapi.Config{BaseURL: h.srv.URL + "/multi", BackOfficeURL: h.srv.URL + "/multi/backoffice", APIKey: apiKey, Token: tok})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestBackOfficeAccessTokensActForTheirIdentity(t *testing.T) {
	h := mustServe(t, sandbox.Config{})
	mine := h.submit(t, 1)
	bo, err := h.client.BackOffice()
	if err != nil {
		t.Fatal(err)
	}
	// The standard token is not a back-office token.
	_, err = bo.List(ctx(t), bulkapi.ListQuery{})
	if e := apiError(t, err, 403); e.Code != "INSUFFICIENT_PERMISSIONS" {
		t.Errorf("errorCode %q", e.Code)
	}
	_, err = mustClient(t, h, "nope", "").BackOffice()
	if err != nil {
		t.Fatal(err)
	}
	noKey, _ := mustClient(t, h, "nope", "").BackOffice()
	_, err = noKey.AccessToken(ctx(t), bulkapi.Identity{Type: bulkapi.Corporate, ID: "77"})
	apiError(t, err, 401)

	tok, err := bo.AccessToken(ctx(t), bulkapi.Identity{Type: bulkapi.Corporate, ID: "77"})
	if err != nil {
		t.Fatal(err)
	}
	bo = bo.WithToken(tok.Token)
	spend, _ := schema.Lookup("card_spend_rules")
	rc, err := bo.Submit(ctx(t), spend, []byte(`[{"pathParams":{"_id_":"123"},"requestBody":{"allowedMerchantCategories":["5411"]}}]`), "bo-1")
	if err != nil {
		t.Fatal(err)
	}
	b, err := bo.Get(ctx(t), rc.BulkID)
	if err != nil || b.Operation != "PATCH /managed_cards/{id}/spend_rules" {
		t.Fatalf("back-office bulk: %+v, %v", b, err)
	}
	ops, err := bo.AllOperations(ctx(t), rc.BulkID, "")
	if err != nil || len(ops) != 1 || ops[0].Path != "/managed_cards/123/spend_rules" || ops[0].Method != "PATCH" {
		t.Fatalf("operations %+v, %v", ops, err)
	}
	// Each identity sees its own bulks only.
	_, err = bo.Get(ctx(t), mine)
	apiError(t, err, 404)
	_, err = h.client.Get(ctx(t), rc.BulkID)
	apiError(t, err, 404)
	// A back-office token is refused by the standard API.
	_, err = h.client.WithToken(tok.Token).Get(ctx(t), mine)
	apiError(t, err, 403)
	// The short back-office path serves the same API.
	alt, _ := bulkapi.New(bulkapi.Config{BaseURL: h.srv.URL + "/multi", BackOfficeURL: h.srv.URL + "/backoffice", APIKey: key, Token: tok.Token})
	alt, _ = alt.BackOffice()
	if _, err := alt.Get(ctx(t), rc.BulkID); err != nil {
		t.Errorf("through /backoffice: %v", err)
	}
	_, err = bo.AccessToken(ctx(t), bulkapi.Identity{Type: "PERSON", ID: "1"})
	if err == nil {
		t.Error("an identity of unknown type got a token")
	}
}

func TestIdempotencyRefReturnsTheOriginalBulk(t *testing.T) {
	h := mustServe(t, sandbox.Config{})
	body := fixture.SampleBody(3)
	first, err := h.client.Submit(ctx(t), transfers, body, "ref-1")
	if err != nil {
		t.Fatal(err)
	}
	again, err := h.client.Submit(ctx(t), transfers, body, "ref-1")
	if err != nil || *again != *first {
		t.Fatalf("same ref and payload: %+v, %v; want %+v", again, err, first)
	}
	_, err = h.client.Submit(ctx(t), transfers, fixture.SampleBody(4), "ref-1")
	if e := apiError(t, err, 409); e.Code != "ALREADY_SUBMITTED" || !strings.Contains(e.Message, first.BulkID) {
		t.Errorf("409 %+v", e)
	}
	sends, _ := schema.Lookup("sends")
	_, err = h.client.Submit(ctx(t), sends, body, "ref-1")
	if err == nil {
		t.Error("the same ref on another operation was accepted")
	}
	other, err := h.client.Submit(ctx(t), transfers, body, "ref-2")
	if err != nil || other.BulkID == first.BulkID {
		t.Errorf("a new ref gave %+v, %v", other, err)
	}
	if list, _ := h.client.List(ctx(t), bulkapi.ListQuery{}); list.Count != 2 {
		t.Errorf("%d bulks, want 2", list.Count)
	}
}

func TestRefsAreForgottenAfterTheirTime(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	h := mustServe(t, sandbox.Config{Now: func() time.Time { return now }})
	body := fixture.SampleBody(1)
	first, _ := h.client.Submit(ctx(t), transfers, body, "ref")
	now = now.Add(sandbox.DefaultRefTTL - time.Minute)
	if again, _ := h.client.Submit(ctx(t), transfers, body, "ref"); again.BulkID != first.BulkID {
		t.Error("the ref was forgotten within its time")
	}
	now = now.Add(2 * time.Minute)
	if later, _ := h.client.Submit(ctx(t), transfers, body, "ref"); later.BulkID == first.BulkID {
		t.Error("the ref was still remembered after its time")
	}
}

func TestFaultsOnDemand(t *testing.T) {
	h := mustServe(t, sandbox.Config{RateLimitReset: 3 * time.Second})
	body := fixture.SampleBody(2)

	h.sb.Faults().Next(sandbox.Fail, 1)
	_, err := h.client.Submit(ctx(t), transfers, body, "r")
	if e := apiError(t, err, 500); !bulkapi.Retryable(e) {
		t.Error("500 not retryable")
	}
	h.sb.Faults().Next(sandbox.RateLimit, 1)
	_, err = h.client.Submit(ctx(t), transfers, body, "r")
	if e := apiError(t, err, 429); e.RateLimitReset != 3*time.Second || e.RateLimit == "" {
		t.Errorf("429 limit %q reset %v", e.RateLimit, e.RateLimitReset)
	}
	if list, _ := h.client.List(ctx(t), bulkapi.ListQuery{}); list.Count != 0 {
		t.Fatalf("a 500 or 429 created a bulk")
	}
	// A dropped connection after the bulk was made: the retry with the
	// same ref gets the same bulk.
	h.sb.Faults().Next(sandbox.Drop, 1)
	_, err = h.client.Submit(ctx(t), transfers, body, "r")
	var te *bulkapi.TransportError
	if !errors.As(err, &te) {
		t.Fatalf("dropped connection gave %v (%T)", err, err)
	}
	list, _ := h.client.ListAll(ctx(t), "")
	if len(list) != 1 {
		t.Fatalf("after the drop: %d bulks, want 1", len(list))
	}
	rc, err := h.client.Submit(ctx(t), transfers, body, "r")
	if err != nil || rc.BulkID != list[0].BulkID {
		t.Fatalf("retry: %+v, %v; want bulk %s", rc, err, list[0].BulkID)
	}
	if n, _ := h.client.ListAll(ctx(t), ""); len(n) != 1 {
		t.Errorf("%d bulks after the retry", len(n))
	}
	got := h.sb.Faults().Injected()
	if got[sandbox.Fail] != 1 || got[sandbox.RateLimit] != 1 || got[sandbox.Drop] != 1 {
		t.Errorf("injected %v", got)
	}
}

func TestFaultsArmedOverHTTP(t *testing.T) {
	h := mustServe(t, sandbox.Config{})
	send := func(path string, hdr map[string]string, body string) int {
		req, _ := http.NewRequest("POST", h.srv.URL+path, strings.NewReader(body))
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return -1
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	auth := map[string]string{"api-key": key, "Authorization": "Bearer " + token}
	withFault := map[string]string{"api-key": key, "Authorization": "Bearer " + token, sandbox.FaultHeader: "500; n=2"}
	if got := send("/multi/bulks/1/pause", withFault, ""); got != 500 {
		t.Errorf("armed request answered %d", got)
	}
	if got := send("/multi/bulks/1/pause", auth, ""); got != 500 {
		t.Errorf("second armed request answered %d", got)
	}
	if got := send("/multi/bulks/1/pause", auth, ""); got != 404 {
		t.Errorf("third request answered %d, want 404 (faults used up)", got)
	}
	if got := send("/multi/bulks/1/pause", map[string]string{sandbox.FaultHeader: "teapot"}, ""); got != 400 {
		t.Errorf("bad fault header answered %d", got)
	}
	if got := send("/sandbox/faults", map[string]string{"api-key": key}, `{"rateLimit":1}`); got != 204 {
		t.Fatalf("arming answered %d", got)
	}
	if got := send("/sandbox/faults", nil, `{"rateLimit":1}`); got != 401 {
		t.Errorf("arming without the api-key answered %d", got)
	}
	if got := send("/multi/bulks/1/pause", auth, ""); got != 429 {
		t.Errorf("after arming: %d", got)
	}
	if got := send("/multi/bulks/1/pause", map[string]string{"api-key": key, "Authorization": "Bearer " + token, sandbox.FaultHeader: "drop"}, ""); got != -1 {
		t.Errorf("a dropped request answered %d", got)
	}
}

func TestPagingAndFilters(t *testing.T) {
	h := mustServe(t, sandbox.Config{OpsPerSecond: 1e6})
	var ids []string
	for range 5 {
		ids = append(ids, h.submit(t, 3, 1))
	}
	if err := h.client.Execute(ctx(t), ids[0], bulkapi.ExecuteOptions{}); err != nil {
		t.Fatal(err)
	}
	h.waitFor(t, ids[0], bulkapi.PartiallyCompleted)
	p, err := h.client.List(ctx(t), bulkapi.ListQuery{Offset: 1, Limit: 2})
	if err != nil || p.Count != 5 || p.ResponseCount != 2 || p.Bulks[0].BulkID != ids[3] || p.Bulks[1].BulkID != ids[2] {
		t.Fatalf("page: %+v, %v", p, err)
	}
	p, _ = h.client.List(ctx(t), bulkapi.ListQuery{Status: bulkapi.Submitted})
	if p.Count != 4 {
		t.Errorf("%d SUBMITTED bulks, want 4", p.Count)
	}
	ops, _ := h.client.Operations(ctx(t), ids[0], bulkapi.OperationQuery{Status: bulkapi.OpFailed})
	if ops.Count != 1 || ops.Operations[0].Sequence != 1 {
		t.Errorf("failed operations %+v", ops)
	}
	seq := 2
	ops, _ = h.client.Operations(ctx(t), ids[0], bulkapi.OperationQuery{Sequence: &seq})
	if ops.Count != 1 || ops.Operations[0].Sequence != 2 || ops.Operations[0].Status != bulkapi.OpCompleted {
		t.Errorf("sequence 2: %+v", ops)
	}
	ops, _ = h.client.Operations(ctx(t), ids[0], bulkapi.OperationQuery{Offset: 1, Limit: 1})
	if ops.Count != 3 || len(ops.Operations) != 1 || ops.Operations[0].Sequence != 1 || !strings.Contains(ops.Operations[0].RequestPayload, `"tag":"sample-2"`) {
		t.Errorf("paged operations %+v", ops)
	}
	_, err = h.client.Operations(ctx(t), "999", bulkapi.OperationQuery{})
	apiError(t, err, 404)
	for _, raw := range []string{"/multi/bulks?limit=101", "/multi/bulks?offset=-1", "/multi/bulks?status=DONE", "/multi/bulks/" + ids[0] + "/operations?status=DONE"} {
		req, _ := http.NewRequest("GET", h.srv.URL+raw, nil)
		req.Header.Set("api-key", key)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 400 {
			t.Errorf("%s answered %d, want 400", raw, resp.StatusCode)
		}
	}
}

// TestANewerContractDecidesWhatIsAccepted serves a contract whose
// transfers need a reference: the sandbox refuses the built-in sample
// that lacks it, as the newer API would.
func TestANewerContractDecidesWhatIsAccepted(t *testing.T) {
	h := mustServe(t, sandbox.Config{Contract: fixture.NewerSource()})
	_, err := h.client.Submit(ctx(t), transfers, fixture.SampleBody(3), "ref-newer")
	e := apiError(t, err, 400)
	by := e.Elements()
	if len(by) != 3 {
		t.Fatalf("syntax errors by element: %v", by)
	}
	found := false
	for _, f := range by[0] {
		found = found || (f.Field() == "requestBody.reference" && f.Error == "REQUIRED")
	}
	if !found {
		t.Errorf("element 0: %v", by[0])
	}
	ok := []byte(`[{"requestBody": {"profileId": "1", "reference": "INV-1"}}]`)
	if _, err := h.client.Submit(ctx(t), transfers, ok, "ref-newer-ok"); err != nil {
		t.Errorf("a transfer of the newer contract: %v", err)
	}
}
