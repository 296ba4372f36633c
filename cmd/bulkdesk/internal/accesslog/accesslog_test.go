package accesslog_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/accesslog"
)

func TestOneLinePerRequestWithoutSecrets(t *testing.T) {
	var buf bytes.Buffer
	h := accesslog.Wrap(slog.New(slog.NewTextHandler(&buf, nil)), "api", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/drop":
			panic(http.ErrAbortHandler)
		case "/quiet":
			return
		}
		w.WriteHeader(http.StatusCreated)
		w.Write([]byte("body-secret"))
	}))
	req := httptest.NewRequest("POST", "/bulks?token=query-secret", strings.NewReader("request-secret"))
	req.Header.Set("Authorization", "Bearer header-secret")
	h.ServeHTTP(httptest.NewRecorder(), req)
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/quiet", nil))
	func() {
		defer func() {
			if recover() != http.ErrAbortHandler {
				t.Error("the abort did not reach the server")
			}
		}()
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/drop", nil))
	}()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines:\n%s", len(lines), buf.String())
	}
	for i, want := range []string{"method=POST path=/bulks status=201", "path=/quiet status=200", "path=/drop status=dropped"} {
		if !strings.Contains(lines[i], want) {
			t.Errorf("line %d %q lacks %q", i, lines[i], want)
		}
	}
	if strings.Contains(buf.String(), "secret") {
		t.Errorf("a secret was logged:\n%s", buf.String())
	}
	if h := accesslog.Wrap(nil, "x", http.NotFoundHandler()); h == nil {
		t.Error("nil logger gave no handler")
	}
}
