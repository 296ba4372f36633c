package auth

import (
	"fmt"
	"net/http"
	"net/netip"
	"strconv"
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
	// TrustedProxies are the proxies in front of the server (a load
	// balancer) whose X-Forwarded-For names the client whose failed
	// sign-ins are counted; from any other peer the client is the peer.
	TrustedProxies []netip.Prefix
	// Refusals is told of the sign-ins refused and the attempts
	// throttled.
	Refusals Refusals
	// Now is the clock of the sessions and of the throttle; time.Now
	// when nil.
	Now func() time.Time
	// Remembered is how many names, and how many addresses, the
	// throttle remembers the failures of at most; 10,000 when zero.
	Remembered int
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
//
// Failed sign-ins are counted by name, known or not, and by client
// address: after 5, each makes the next attempt wait 1, 2, 4 then 8
// seconds, and the 10th and every one after it 15 minutes. An attempt
// made before its wait is over is answered 429 Too Many Requests with
// Retry-After and its password is not checked, even a right one; a
// session already open goes on. A name or address is forgotten an hour
// after its latest failure.
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
	if o.Now != nil {
		sess.now = o.Now
	}
	throttled := newThrottle(o.Now, o.Remembered)
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
		if !hasBasic {
			challenge(w)
			return
		}
		client := clientAddr(r, o.TrustedProxies)
		counted := name
		if !validName(name) {
			counted = "" // no account has it: the address alone counts
		}
		key := clientKey(client)
		if wait, by := throttled.try(counted, key); wait > 0 {
			o.Refusals.throttled(by)
			tooMany(w, wait)
			return
		}
		reason := ReasonBadName
		if counted != "" {
			ok, known := users.verify(name, password)
			if ok {
				throttled.done(counted, key, true)
				signIn(w, r, sess, o, name, next)
				return
			}
			reason = ReasonWrongPassword
			if !known {
				reason = ReasonUnknownUser
			}
		}
		failures, wait := throttled.done(counted, key, false)
		o.Refusals.failed(reason, "sign-in refused", "user", loggable(name), "client", client,
			"failures", failures, "next_attempt_in", wait)
		challenge(w)
	}), nil
}

// signIn gives the session cookie to a person whose credentials checked
// and lets the request through.
func signIn(w http.ResponseWriter, r *http.Request, sess *sessions, o BasicOptions, name string, next http.Handler) {
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
}

// challenge asks the browser for a name and password.
func challenge(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", `Basic realm="`+Realm+`"`)
	unauthorized(w, "sign in with your Bulkdesk name and password")
}

// tooMany answers an attempt made before its wait is over. It says the
// same whatever the name, known or not.
func tooMany(w http.ResponseWriter, wait time.Duration) {
	secs := int((wait + time.Second - 1) / time.Second)
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	refuse(w, http.StatusTooManyRequests, fmt.Sprintf("too many failed sign-ins with this name or from this address: try again in %d seconds", secs))
}
