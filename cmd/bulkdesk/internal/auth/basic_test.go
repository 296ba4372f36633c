package auth_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/auth"
)

func TestBasic(t *testing.T) {
	users := htpasswd(t, "ada:"+hash(t, "s3cret"))
	h, err := auth.Basic(users, auth.BasicOptions{CookiePath: "/console/"}, whoami)
	if err != nil {
		t.Fatal(err)
	}
	get := func(setup func(*http.Request)) (*http.Response, string) {
		r := httptest.NewRequest("GET", "/console/api/bulks", nil)
		setup(r)
		return do(h, r)
	}
	for name, setup := range map[string]func(*http.Request){
		"nothing":        func(*http.Request) {},
		"wrong password": func(r *http.Request) { r.SetBasicAuth("ada", "nope") },
		"unknown user":   func(r *http.Request) { r.SetBasicAuth("bob", "s3cret") },
		"bearer only":    func(r *http.Request) { r.Header.Set("Authorization", "Bearer tok") },
		"forged cookie": func(r *http.Request) {
			r.AddCookie(&http.Cookie{Name: auth.SessionCookie, Value: "YWRh.99999999999.AAAA"})
		},
	} {
		res, _ := get(setup)
		if res.StatusCode != 401 || res.Header.Get("WWW-Authenticate") != `Basic realm="Bulkdesk"` {
			t.Errorf("%s: %d, WWW-Authenticate %q", name, res.StatusCode, res.Header.Get("WWW-Authenticate"))
		}
	}
	res, body := get(func(r *http.Request) { r.SetBasicAuth("ada", "s3cret") })
	if res.StatusCode != 200 || body != "ada||" {
		t.Fatalf("right password: %d %q (the password must not reach the handler)", res.StatusCode, body)
	}
	var session *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == auth.SessionCookie {
			session = c
		}
	}
	if session == nil || !session.HttpOnly || session.Path != "/console/" || session.SameSite != http.SameSiteStrictMode {
		t.Fatalf("session cookie %+v", session)
	}
	// The console's API calls carry the API's token, and the cookie.
	res, body = get(func(r *http.Request) {
		r.Header.Set("Authorization", "Bearer tok")
		r.AddCookie(session)
	})
	if res.StatusCode != 200 || body != "ada|Bearer tok|" {
		t.Errorf("with the session: %d %q", res.StatusCode, body)
	}
	tampered := *session
	tampered.Value = strings.Replace(session.Value, "YWRh", "Ym9i", 1) // "bob"
	if res, _ := get(func(r *http.Request) { r.AddCookie(&tampered) }); res.StatusCode != 401 {
		t.Errorf("tampered session: %d", res.StatusCode)
	}
}
