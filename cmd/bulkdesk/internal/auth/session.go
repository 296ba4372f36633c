package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// sessions signs the cookie that keeps a person signed in after one Basic
// check. The key is made up when the server starts: a restart signs
// everyone out, and the browser signs them in again with the Basic
// credentials it remembers.
type sessions struct {
	key []byte
	ttl time.Duration
	now func() time.Time
}

func newSessions(ttl time.Duration) (*sessions, error) {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("making the session key: %w", err)
	}
	return &sessions{key: key, ttl: ttl, now: time.Now}, nil
}

// issue returns a cookie value naming user until the session expires:
// the name (base64, since it may hold any character), the expiry and a MAC
// of both.
func (s *sessions) issue(user string) string {
	body := base64.RawURLEncoding.EncodeToString([]byte(user)) + "." + strconv.FormatInt(s.now().Add(s.ttl).Unix(), 10)
	return body + "." + s.mac(body)
}

// user returns the name in a cookie value this server issued and that has
// not expired.
func (s *sessions) user(value string) (string, bool) {
	i := strings.LastIndexByte(value, '.')
	if i < 0 {
		return "", false
	}
	body, mac := value[:i], value[i+1:]
	if !hmac.Equal([]byte(mac), []byte(s.mac(body))) {
		return "", false
	}
	name, exp, ok := strings.Cut(body, ".")
	if !ok {
		return "", false
	}
	until, err := strconv.ParseInt(exp, 10, 64)
	if err != nil || s.now().Unix() >= until {
		return "", false
	}
	user, err := base64.RawURLEncoding.DecodeString(name)
	if err != nil {
		return "", false
	}
	return string(user), true
}

func (s *sessions) mac(body string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(body))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}
