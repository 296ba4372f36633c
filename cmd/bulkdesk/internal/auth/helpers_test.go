package auth_test

import (
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/auth"
)

// whoami answers with the name the middleware found, and the headers it
// let through, so tests can see what a handler behind it sees.
var whoami = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	io.WriteString(w, auth.User(r.Context())+"|"+r.Header.Get("Authorization")+"|"+r.Header.Get("X-Forwarded-User"))
})

func do(h http.Handler, r *http.Request) (*http.Response, string) {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	res := rec.Result()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}
