package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/fixture/eventually"
	"github.com/bulkdesk/bulkdesk/app/submission/recordhttp"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
	"github.com/bulkdesk/bulkdesk/schema"
)

// stateDirLost is what serve logs once its state folder is gone.
const stateDirLost = "the state folder changed under the server"

// TestServeNoticesItsStateDirRemoved: a state folder removed under a
// running server (its databases still open, and locked, as deleted files)
// is noticed without a request, logged once, and from then on the server
// says it is unhealthy and executes nothing it cannot check, even with
// -four-eyes-unknown allow, where a record that reads as empty would let
// any bulk through.
func TestServeNoticesItsStateDirRemoved(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	s := startSecuredWith(t, func(cfg *serveConfig) { cfg.stateDirCheck = 5 * time.Millisecond },
		"-auth", "header", "-trusted-proxies", "127.0.0.1/32", "-four-eyes", "-state-dir", state, "-four-eyes-unknown", "allow")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	alice, bob := operator(t, s, "alice"), operator(t, s, "bob")
	kind, _ := schema.Lookup("card_blocks")
	receipt, err := alice.Submit(ctx, kind, []byte(`[{"pathParams":{"_id_":"1"}}]`), "state-dir-1")
	if err != nil {
		t.Fatal(err)
	}
	if res, _ := call(t, "GET", s.url+"healthz"); res.StatusCode != http.StatusOK {
		t.Fatalf("healthz before: %d", res.StatusCode)
	}

	if err := os.RemoveAll(state); err != nil {
		t.Fatal(err)
	}
	s.logs.waitFor(t, stateDirLost) // no request made: the periodic check found it
	waitHealthz(t, s, http.StatusServiceUnavailable)

	err = bob.Execute(ctx, receipt.BulkID, bulkapi.ExecuteOptions{})
	if err == nil || !strings.Contains(err.Error(), "could not be read, so it is not executed") {
		t.Errorf("bob executing alice's bulk on a record nobody keeps: %v", err)
	}
	if b, err := bob.Get(ctx, receipt.BulkID); err != nil || b.Status != bulkapi.Submitted {
		t.Errorf("the sandbox's bulk after the refused execute: %+v, %v", b, err)
	}
	// A submission's flight cannot be kept either: it is not sent, since
	// its bulk would be one nobody can tell the maker of.
	if r, err := alice.Submit(ctx, kind, []byte(`[{"pathParams":{"_id_":"2"}}]`), "state-dir-2"); err == nil {
		t.Errorf("alice's submission on a record nobody keeps was sent: %+v", r)
	}
	if code, m := fourEyesStatus(t, s, "bob", receipt.BulkID); code != http.StatusServiceUnavailable || m["mayExecute"] == true {
		t.Errorf("the console asking whether bob may execute: %d %v", code, m)
	}
	hc := &http.Client{Transport: asUser{"bob"}}
	creds := http.Header{"Api-Key": {sandbox.DefaultAPIKey}, "Authorization": {"Bearer " + sandbox.DefaultToken}}
	if r, err := recordhttp.Fetch(ctx, hc, s.url+"record/api", creds, kind, nil, nil); err == nil {
		t.Errorf("the record of bulks kept in a removed folder: %+v", r)
	}
	if n := strings.Count(s.logs.String(), stateDirLost); n != 1 {
		t.Errorf("the loss was logged %d times:\n%s", n, s.logs.String())
	}
}

// waitHealthz asks s's /healthz until it answers want: 200 once its
// database is ready.
func waitHealthz(t *testing.T, s *securedServe, want int) {
	t.Helper()
	eventually.NoError(t, 30*time.Second, fmt.Sprintf("healthz to answer %d", want), func() error {
		if res, _ := call(t, "GET", s.url+"healthz"); res.StatusCode != want {
			return fmt.Errorf("it answers %d", res.StatusCode)
		}
		return nil
	})
}
