package auth

import (
	"context"
	"net/http"
)

type userKey struct{}

// User returns the name of the person a request was authenticated as, or
// "" when it was not.
func User(ctx context.Context) string {
	u, _ := ctx.Value(userKey{}).(string)
	return u
}

// withUser returns r carrying the name of its sender, for the handlers
// and the access log behind the middleware.
func withUser(r *http.Request, user string) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), userKey{}, user))
}

// unauthorized answers a request without an identity.
func unauthorized(w http.ResponseWriter, msg string) {
	refuse(w, http.StatusUnauthorized, msg)
}

// refuse answers a request the middleware lets no further. The body says
// what is missing and never echoes what was sent.
func refuse(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(msg + "\n"))
}

// validName accepts a user name to log and hand on: not empty, not too
// long and without control characters, which could forge log lines.
func validName(s string) bool {
	if s == "" || len(s) > 256 {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}
