//go:build !js

package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/pgtest"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
	"github.com/bulkdesk/bulkdesk/schema"
)

// TestTwoServersShareTheFourEyesRecord runs two servers behind one
// address, as a load balancer would, on one PostgreSQL database and one
// API: a bulk alice submits through the first cannot be executed by alice
// through the second, and bob's execution through the second is recorded
// for the first.
func TestTwoServersShareTheFourEyesRecord(t *testing.T) {
	dsn := pgtest.Start(t)
	sb, err := sandbox.New(sandbox.Config{APIKey: sandbox.DefaultAPIKey, Token: sandbox.DefaultToken})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sb.Close)
	api := httptest.NewServer(sb)
	t.Cleanup(api.Close)
	args := []string{"-auth", "header", "-trusted-proxies", "127.0.0.1/32", "-api-url", api.URL + "/multi", "-four-eyes", "-store", dsn}
	one, two := startSecured(t, args...), startSecured(t, args...)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	kind, _ := schema.Lookup("card_blocks")
	receipt, err := operator(t, one, "alice").Submit(ctx, kind, []byte(`[{"pathParams":{"_id_":"1"}}]`), "two-servers-1")
	if err != nil {
		t.Fatal(err)
	}
	id := receipt.BulkID
	if code, m := fourEyesStatus(t, two, "alice", id); code != 200 || m["submittedBy"] != "alice" || m["mayExecute"] != false {
		t.Errorf("the second server on alice's bulk: %d %v", code, m)
	}
	err = operator(t, two, "alice").Execute(ctx, id, bulkapi.ExecuteOptions{})
	if err == nil || !strings.Contains(err.Error(), "was submitted by alice; another operator must execute it") {
		t.Fatalf("alice executing her bulk through the second server: %v", err)
	}
	if err := operator(t, two, "bob").Execute(ctx, id, bulkapi.ExecuteOptions{}); err != nil {
		t.Fatalf("bob executing through the second server: %v", err)
	}
	if code, m := fourEyesStatus(t, one, "carol", id); code != 200 || m["executedBy"] != "bob" {
		t.Errorf("the first server after bob's execution: %d %v", code, m)
	}
	for _, s := range []*securedServe{one, two} {
		if res, body := call(t, "GET", s.url+"healthz"); res.StatusCode != http.StatusOK || body != "ok\n" {
			t.Errorf("healthz: %d %q", res.StatusCode, body)
		}
	}
}

// TestServeSaysWhenItsDatabaseDoesNotAnswer: a server whose -store does
// not answer stops with a message naming the database, not its password.
func TestServeSaysWhenItsDatabaseDoesNotAnswer(t *testing.T) {
	args := []string{"-addr", "127.0.0.1:0", "-sandbox", "-quiet", "-auth", "header", "-trusted-proxies", "127.0.0.1/32",
		"-four-eyes", "-store", "postgres://bulkdesk:s3cret@127.0.0.1:1/ops?sslmode=disable"}
	cfg, err := parseServe(args, func(string) string { return "" }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cfg.options.Assets = miniConsole(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err = serveConsole(ctx, cfg, func(string) { t.Error("a server without its database listened") })
	if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "127.0.0.1:1/ops") {
		t.Errorf("serve: %v", err)
	}
}
