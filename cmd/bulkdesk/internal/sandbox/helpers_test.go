package sandbox_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/fixture/eventually"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
	"github.com/bulkdesk/bulkdesk/schema"
)

const (
	key   = "test-api-key"
	token = "test-token"
)

var transfers, _ = schema.Lookup("transfers")

// harness is a sandbox served on 127.0.0.1 and a client of it.
type harness struct {
	sb     *sandbox.Sandbox
	srv    *httptest.Server
	client *bulkapi.Client
}

// mustServe starts a sandbox with cfg (credentials filled in) and stops it
// when the test ends.
func mustServe(t testing.TB, cfg sandbox.Config) *harness {
	t.Helper()
	if cfg.APIKey == "" {
		cfg.APIKey, cfg.Token = key, token
	}
	sb, err := sandbox.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sb)
	t.Cleanup(func() {
		srv.Close()
		sb.Close()
	})
	c, err := bulkapi.New(bulkapi.Config{BaseURL: srv.URL + "/multi", BackOfficeURL: srv.URL + "/multi/backoffice", APIKey: cfg.APIKey, Token: cfg.Token})
	if err != nil {
		t.Fatal(err)
	}
	return &harness{sb: sb, srv: srv, client: c}
}

// submit submits a sample of n transfers and returns the bulk id.
func (h *harness) submit(t testing.TB, n int, fail ...int) string {
	t.Helper()
	rc, err := h.client.Submit(ctx(t), transfers, fixture.SampleBody(n, fail...), "")
	if err != nil {
		t.Fatal(err)
	}
	if rc.OperationCount != n {
		t.Fatalf("operationCount = %d, want %d", rc.OperationCount, n)
	}
	return rc.BulkID
}

// waitFor asks for the bulk until it is in state want.
func (h *harness) waitFor(t testing.TB, id string, want bulkapi.Status) *bulkapi.BulkProcess {
	t.Helper()
	var b *bulkapi.BulkProcess
	eventually.NoError(t, 10*time.Second, "bulk "+id+" to be "+string(want), func() error {
		var err error
		if b, err = h.client.Get(ctx(t), id); err != nil {
			t.Fatal(err)
		}
		if b.Status.Final() && b.Status != want {
			t.Fatalf("bulk %s is %s, want %s", id, b.Status, want)
		}
		if b.Status != want {
			return fmt.Errorf("it is %s", b.Status)
		}
		return nil
	})
	return b
}

func ctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

// apiError asserts that err is an API refusal with the given status.
func apiError(t *testing.T, err error, status int) *bulkapi.Error {
	t.Helper()
	e, ok := bulkapi.AsError(err)
	if !ok {
		t.Fatalf("err = %v (%T), want a %d refusal", err, err, status)
	}
	if e.Status != status {
		t.Fatalf("status %d (%v), want %d", e.Status, e, status)
	}
	if e.RequestRef == "" {
		t.Errorf("the %d refusal has no request-ref", status)
	}
	return e
}
