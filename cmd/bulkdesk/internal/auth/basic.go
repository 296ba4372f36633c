package auth

import (
	"net/http"
	"strings"
	"time"
)

// Realm is the realm of the Basic challenge, which browsers show when
// they ask for a name and password.
const Realm = "Bulkdesk"

// SessionCookie is the cookie that keeps a person signed in after a Basic
// check.
const SessionCookie = "bulkdesk-session"

// BasicOptions tune Basic.
type BasicOptions struct {
	// CookiePath is the path of the session cookie: the console's prefix,
	// so that other applications behind the same host never see it. "/"
	// when empty.
	CookiePath string
	// SessionTTL is how long a session lasts before the browser has to
	// send its Basic credentials again; 12 hours when zero.
	SessionTTL time.Duration
}

// Basic returns next behind HTTP Basic authentication against users.
//
// A request is let through when it carries Basic credentials that check,
// or the session cookie given with an earlier such answer. The cookie is
// needed because the console's calls to the API carry the API's own
// Authorization header (a Bearer token), so the browser cannot add the
// Basic credentials to them. Basic credentials are removed from the
// request before next sees it, so that the proxy never passes a
// password on to the API.
func Basic(users *Users, o BasicOptions, next http.Handler) (http.Handler, error) {
	if o.CookiePath == "" {
		o.CookiePath = "/"
	}
	if o.SessionTTL == 0 {
		o.SessionTTL = 12 * time.Hour
	}
	sess, err := newSessions(o.SessionTTL)
	if err != nil {
		return nil, err
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, password, hasBasic := r.BasicAuth()
		if hasBasic {
			r.Header.Del("Authorization")
		}
		if c, err := r.Cookie(SessionCookie); err == nil {
			if user, ok := sess.user(c.Value); ok {
				next.ServeHTTP(w, withUser(r, user))
				return
			}
		}
		if !hasBasic || !validName(name) || !users.Check(name, password) {
			w.Header().Set("WWW-Authenticate", `Basic realm="`+Realm+`"`)
			unauthorized(w, "sign in with your Bulkdesk name and password")
			return
		}
		http.SetCookie(w, &http.Cookie{
			Name:     SessionCookie,
			Value:    sess.issue(name),
			Path:     o.CookiePath,
			MaxAge:   int(o.SessionTTL / time.Second),
			HttpOnly: true,
			Secure:   r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https"),
			SameSite: http.SameSiteStrictMode,
		})
		next.ServeHTTP(w, withUser(r, name))
	}), nil
}
