package main

import (
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
	"github.com/bulkdesk/bulkdesk/schema"
)

func TestServeFourEyesFlags(t *testing.T) {
	dir := t.TempDir()
	noEnv := func(string) string { return "" }
	header := []string{"-auth", "header", "-trusted-proxies", "127.0.0.1/32", "-sandbox"}
	for _, c := range []struct {
		args []string
		want string // in the error; "" for none
	}{
		{[]string{"-four-eyes", "-state-dir", dir, "-sandbox"}, "-four-eyes needs -auth header or -auth basic"},
		{append([]string{"-four-eyes"}, header...), "-four-eyes needs -state-dir"},
		{append([]string{"-four-eyes", "-state-dir", dir, "-four-eyes-unknown", "maybe"}, header...), `-four-eyes-unknown "maybe": use refuse or allow`},
		{append([]string{"-four-eyes-unknown", "allow"}, header...), "-four-eyes-unknown allow needs -four-eyes"},
		{[]string{"-four-eyes", "-state-dir", dir, "-auth", "header", "-trusted-proxies", "127.0.0.1/32"}, "-four-eyes needs -api-url (or -sandbox)"},
		{append([]string{"-four-eyes", "-state-dir", dir, "-connect-src", "https://api.example"}, header...), "cannot be combined with -connect-src"},
		{append([]string{"-four-eyes", "-state-dir", dir}, header...), ""},
		{append([]string{"-four-eyes", "-state-dir", dir, "-four-eyes-unknown", "allow"}, header...), ""},
		{append([]string{"-four-eyes", "-state-dir", dir, "-store", "postgres://db.internal/ops"}, header...), "choose one"},
		{[]string{"-state-dir", dir, "-store", "postgres://db.internal/ops"}, "choose one"},
	} {
		cfg, err := parseServe(append([]string{"-addr", "127.0.0.1:0"}, c.args...), noEnv, io.Discard)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v: %v", c.args, err)
		case c.want == "" && (!cfg.fourEyes.on || cfg.stateDir != dir):
			t.Errorf("%v: %+v", c.args, cfg.fourEyes)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%v: %v, want an error with %q", c.args, err, c.want)
		}
	}

	cfg, err := parseServe(append([]string{"-addr", "127.0.0.1:0", "-four-eyes"}, header...), func(k string) string {
		return map[string]string{envStore: "postgres://db.internal/ops"}[k]
	}, io.Discard)
	if err != nil || cfg.store != "postgres://db.internal/ops" || cfg.stateDir != "" {
		t.Errorf("-store from the environment: %+v, %v", cfg.fourEyes, err)
	}

	env := map[string]string{envFourEyes: "1", envStateDir: dir, envFourEyesUnk: "allow"}
	cfg, err = parseServe(append([]string{"-addr", "127.0.0.1:0"}, header...), func(k string) string { return env[k] }, io.Discard)
	if err != nil || !cfg.fourEyes.on || cfg.stateDir != dir || !cfg.fourEyes.allowUnknown {
		t.Errorf("from the environment: %+v, %v", cfg.fourEyes, err)
	}
}

// asUser sends every request as a portal signing in user would.
type asUser struct {
	user string
}

func (a asUser) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-Forwarded-User", a.user)
	return http.DefaultTransport.RoundTrip(r)
}

func operator(t *testing.T, s *securedServe, user string) *bulkapi.Client {
	t.Helper()
	c, err := bulkapi.New(bulkapi.Config{BaseURL: s.url + "api", BackOfficeURL: s.url + "backoffice", APIKey: sandbox.DefaultAPIKey, Token: sandbox.DefaultToken, Transport: asUser{user}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// fourEyesStatus asks GET four-eyes/bulks/{id} as user.
func fourEyesStatus(t *testing.T, s *securedServe, user, id string) (int, map[string]any) {
	t.Helper()
	res, body := call(t, "GET", s.url+"four-eyes/bulks/"+id, header("X-Forwarded-User", user))
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatalf("four-eyes/bulks/%s: %d %q", id, res.StatusCode, body)
	}
	if cc := res.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("four-eyes/bulks/%s: Cache-Control %q", id, cc)
	}
	return res.StatusCode, m
}

func TestServeFourEyes(t *testing.T) {
	dir := t.TempDir()
	args := []string{"-auth", "header", "-trusted-proxies", "127.0.0.1/32", "-webhook-addr", "127.0.0.1:0", "-four-eyes", "-state-dir", dir}
	s := startSecured(t, args...)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	alice, bob := operator(t, s, "alice"), operator(t, s, "bob")
	kind, _ := schema.Lookup("card_blocks")
	receipt, err := alice.Submit(ctx, kind, []byte(`[{"pathParams":{"_id_":"1"}}]`), "four-eyes-1")
	if err != nil {
		t.Fatal(err)
	}
	id := receipt.BulkID

	if code, m := fourEyesStatus(t, s, "bob", id); code != 200 || m["rule"] != true || m["submittedBy"] != "alice" || m["you"] != "bob" || m["mayExecute"] != true || m["submittedAt"] == nil {
		t.Errorf("bob asking: %d %v", code, m)
	}
	if code, m := fourEyesStatus(t, s, "alice", id); code != 200 || m["mayExecute"] != false {
		t.Errorf("alice asking: %d %v", code, m)
	}
	if code, m := fourEyesStatus(t, s, "bob", "no-such-bulk"); code != 404 || m["rule"] != true || m["mayExecute"] != false {
		t.Errorf("an unknown bulk: %d %v", code, m)
	}

	err = alice.Execute(ctx, id, bulkapi.ExecuteOptions{})
	if err == nil || !strings.Contains(err.Error(), "four eyes: bulk "+id+" was submitted by alice; another operator must execute it") {
		t.Fatalf("alice executing her own bulk: %v", err)
	}
	if b, err := bob.Get(ctx, id); err != nil || b.Status != bulkapi.Submitted {
		t.Fatalf("after alice's refused execute: %+v, %v", b, err)
	}
	if err := bob.Execute(ctx, id, bulkapi.ExecuteOptions{}); err != nil {
		t.Fatalf("bob executing alice's bulk: %v", err)
	}
	if b, err := bob.Get(ctx, id); err != nil || b.Status == bulkapi.Submitted {
		t.Errorf("after bob's execute the sandbox still has %+v, %v", b, err)
	}
	if _, body := call(t, "GET", s.url+"metrics", header("X-Forwarded-User", "bob")); !strings.Contains(body, `bulkdesk_four_eyes_refusals_total{reason="same_operator"} 1`) {
		t.Errorf("the metrics do not count the refusal:\n%s", body)
	}

	// A second server cannot take the same record, and says why.
	cfg, err := parseServe(append([]string{"-addr", "127.0.0.1:0", "-sandbox", "-quiet"}, args...), func(string) string { return "" }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cfg.options.Assets = miniConsole(t)
	err = serveConsole(ctx, cfg, func(string) { t.Error("the second server listened") })
	if err == nil || !strings.Contains(err.Error(), "in use by another process") {
		t.Errorf("a second server on the same -state-dir: %v", err)
	}
}

func TestServeFourEyesOffSaysSo(t *testing.T) {
	s := startSecured(t, "-auth", "header", "-trusted-proxies", "127.0.0.1/32")
	if code, m := fourEyesStatus(t, s, "bob", "123"); code != 200 || len(m) != 2 || m["rule"] != false || m["you"] != "bob" {
		t.Errorf("the rule off: %d %v", code, m)
	}
	if res, _ := call(t, "GET", s.url+"four-eyes/bulks/123"); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("without a user: %d, want 401", res.StatusCode)
	}
}

// slowAPI is the fake API whose submissions make their bulk at once but
// answer only when the test lets them: the moment a bulk exists that no
// server has recorded yet. Its bulk ids are predictable
// (fakeapi.FirstBulkID, then up), as an attacker would wish.
type slowAPI struct {
	url  string
	api  *fakeapi.API
	made chan string // each bulk's id, as it is made
	// answer lets one held submission answer per value sent.
	answer chan struct{}
}

func startSlowAPI(t *testing.T) *slowAPI {
	t.Helper()
	s := &slowAPI{api: fakeapi.New(), made: make(chan string, 4), answer: make(chan struct{})}
	s.api.Key, s.api.Token = "", "" // any: the operators send the sandbox's
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/bulks/transfers") {
			s.api.ServeHTTP(w, r)
			return
		}
		made := httptest.NewRecorder()
		s.api.ServeHTTP(made, r)
		var created struct {
			BulkID string `json:"bulkId"`
		}
		_ = json.Unmarshal(made.Body.Bytes(), &created)
		s.made <- created.BulkID
		select {
		case <-s.answer:
		case <-r.Context().Done():
			return
		}
		maps.Copy(w.Header(), made.Header())
		w.WriteHeader(made.Code)
		w.Write(made.Body.Bytes())
	}))
	t.Cleanup(srv.Close)
	s.url = srv.URL
	return s
}

// status reads a bulk's state at the fake API, around the proxy.
func (s *slowAPI) status(t *testing.T, id string) bulkapi.Status {
	t.Helper()
	b, err := fakeapi.Client(s.api).Get(context.Background(), id)
	if err != nil {
		t.Fatalf("bulk %s at the API: %v", id, err)
	}
	return b.Status
}

// checkNoOvertaking has alice submit a bulk through via while the API
// holds its answer, and execute it through every server meanwhile and
// after: each is refused and never reaches the API; bob's execution is
// accepted.
func checkNoOvertaking(t *testing.T, api *slowAPI, via *securedServe, servers ...*securedServe) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	kind, _ := schema.Lookup("transfers")
	maker := operator(t, via, "alice")
	type submitted struct {
		receipt *bulkapi.Receipt
		err     error
	}
	answered := make(chan submitted, 1)
	go func() {
		r, err := maker.Submit(ctx, kind, fixture.SampleBody(1), "overtake-1")
		answered <- submitted{r, err}
	}()
	var id string
	select {
	case id = <-api.made:
	case got := <-answered:
		t.Fatalf("the submission was answered before the API held it: %+v, %v", got.receipt, got.err)
	case <-ctx.Done():
		t.Fatal("the submission never reached the API")
	}
	// refused checks that alice's execute through each server is refused
	// with want, and never reaches the API.
	refused := func(when, want string) {
		t.Helper()
		for i, s := range servers {
			err := operator(t, s, "alice").Execute(ctx, id, bulkapi.ExecuteOptions{})
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("server %d: alice executing bulk %s %s: %v", i+1, id, when, err)
			}
		}
		if st := api.status(t, id); st != bulkapi.Submitted {
			t.Fatalf("alice's execute %s reached the API: bulk %s is %s", when, id, st)
		}
	}
	refused("while its answer is on its way", "four eyes")
	api.answer <- struct{}{}
	got := <-answered
	if got.err != nil || got.receipt.BulkID != id {
		t.Fatalf("the submission: %+v, %v", got.receipt, got.err)
	}
	refused("once it is answered", "was submitted by alice")
	if err := operator(t, servers[len(servers)-1], "bob").Execute(ctx, id, bulkapi.ExecuteOptions{}); err != nil {
		t.Fatalf("bob executing alice's bulk: %v", err)
	}
}

// TestServeFourEyesAnExecuteCannotOvertakeItsSubmission: under
// -four-eyes-unknown allow, a bulk the API has made but not yet answered
// for is not "unknown" to its maker: alice cannot execute it before its
// record is written, nor after.
func TestServeFourEyesAnExecuteCannotOvertakeItsSubmission(t *testing.T) {
	api := startSlowAPI(t)
	s := startSecured(t, "-auth", "header", "-trusted-proxies", "127.0.0.1/32", "-api-url", api.url+"/multi",
		"-four-eyes", "-four-eyes-unknown", "allow", "-state-dir", t.TempDir())
	checkNoOvertaking(t, api, s, s)
}
