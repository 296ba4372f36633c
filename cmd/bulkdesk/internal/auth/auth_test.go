package auth_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/auth"
	"golang.org/x/crypto/bcrypt"
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

func TestHeaderIsTrustedOnlyFromTrustedProxies(t *testing.T) {
	trusted, err := auth.ParsePrefixes("127.0.0.1/32, 10.0.0.0/8")
	if err != nil {
		t.Fatal(err)
	}
	h := auth.Header(auth.DefaultHeader, trusted, whoami)
	for _, tc := range []struct {
		peer, user string
		want       int
		body       string
	}{
		{"127.0.0.1:5555", "ada", 200, "ada||"},
		{"10.9.8.7:5555", "bob", 200, "bob||"},
		{"[::ffff:10.1.1.1]:5555", "eve", 200, "eve||"}, // IPv4 seen through an IPv6 socket
		{"192.168.1.1:5555", "mallory", 401, ""},
		{"[::1]:5555", "mallory", 401, ""},
		{"127.0.0.1:5555", "", 401, ""},
		{"127.0.0.1:5555", "a\nforged log line", 401, ""},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.peer
		if tc.user != "" {
			r.Header.Set("X-Forwarded-User", tc.user)
		}
		res, body := do(h, r)
		if res.StatusCode != tc.want || (tc.want == 200 && body != tc.body) {
			t.Errorf("%s as %q: %d %q, want %d %q", tc.peer, tc.user, res.StatusCode, body, tc.want, tc.body)
		}
	}
	// A CIDR that leaves the peer out: the header counts for nothing.
	other, _ := auth.ParsePrefixes("10.0.0.0/8")
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "127.0.0.1:5555"
	r.Header.Set("X-Forwarded-User", "ada")
	if res, _ := do(auth.Header(auth.DefaultHeader, other, whoami), r); res.StatusCode != 401 {
		t.Errorf("untrusted peer: %d, want 401", res.StatusCode)
	}
}

func TestParsePrefixes(t *testing.T) {
	p, err := auth.ParsePrefixes("10.1.2.3 192.168.0.0/16,::1")
	if err != nil || len(p) != 3 || p[0].String() != "10.1.2.3/32" || p[2].String() != "::1/128" {
		t.Errorf("%v, %v", p, err)
	}
	if _, err := auth.ParsePrefixes("10.0.0.0/33"); err == nil {
		t.Error("a bad CIDR was accepted")
	}
}

func htpasswd(t *testing.T, lines ...string) *auth.Users {
	t.Helper()
	u, err := auth.ParseHtpasswd([]byte(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func hash(t *testing.T, password string) string {
	t.Helper()
	h, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	return string(h)
}

func TestUsersCheck(t *testing.T) {
	h2b := hash(t, "s3cret")
	h2y := "$2y$" + strings.TrimPrefix(hash(t, "other"), "$2a$")
	u := htpasswd(t, "# accounts", "", "ada:"+h2b, "bob:"+h2y)
	for _, tc := range []struct {
		name, password string
		want           bool
	}{
		{"ada", "s3cret", true}, {"bob", "other", true},
		{"ada", "other", false}, {"bob", "s3cret", false}, {"carol", "s3cret", false}, {"", "", false}, {"ad", "s3cret", false},
	} {
		if got := u.Check(tc.name, tc.password); got != tc.want {
			t.Errorf("Check(%q, %q) = %v", tc.name, tc.password, got)
		}
	}
}

func TestHtpasswdErrorsNameFileAndLine(t *testing.T) {
	dir := t.TempDir()
	for content, want := range map[string]string{
		"ada:" + hash(t, "x") + "\nbob\n":               "line 2",
		"ada:{SHA}abcdef\n":                             "line 1",
		"# nothing\n":                                   "no user:hash",
		"ada:$2y$10$short\n":                            "line 1",
		"ada:" + hash(t, "x") + "\nada:" + hash(t, "y"): "line 2",
	} {
		path := filepath.Join(dir, "users")
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := auth.LoadHtpasswd(path)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error naming %s and %q", content, err, path, want)
		}
	}
	missing := filepath.Join(dir, "absent")
	if _, err := auth.LoadHtpasswd(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: %v", err)
	}
}

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

func TestHosts(t *testing.T) {
	allowed, err := auth.ParseHosts("localhost,127.0.0.1 [::1], console.example:8443")
	if err != nil {
		t.Fatal(err)
	}
	h := auth.Hosts(allowed, whoami)
	for host, want := range map[string]int{
		"localhost": 200, "localhost:8080": 200, "LOCALHOST:1": 200, "127.0.0.1:9": 200, "[::1]:8080": 200, "[::1]": 200,
		"console.example:8443": 200, "console.example": 421, "console.example:443": 421,
		"evil.example": 421, "evil.example:8080": 421, "127.0.0.2:8080": 421, "": 421,
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Host = host
		if res, _ := do(h, r); res.StatusCode != want {
			t.Errorf("Host %q: %d, want %d", host, res.StatusCode, want)
		}
	}
	if _, err := auth.ParseHosts("https://console.example/"); err == nil {
		t.Error("a URL was accepted as a host")
	}
}

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:8080": true, "localhost:0": true, "[::1]:80": true, "127.1.2.3:1": true,
		"0.0.0.0:0": false, ":8080": false, "[::]:80": false, "10.0.0.1:80": false, "console.example:80": false, "nonsense": false,
	} {
		if got := auth.IsLoopback(addr); got != want {
			t.Errorf("IsLoopback(%q) = %v", addr, got)
		}
	}
}
