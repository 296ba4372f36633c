package auth

import (
	"testing"
	"time"
)

func TestSessionsExpireAndResistForgery(t *testing.T) {
	s, err := newSessions(time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_800_000_000, 0)
	s.now = func() time.Time { return now }
	v := s.issue("ada.lovelace|admin")
	if u, ok := s.user(v); !ok || u != "ada.lovelace|admin" {
		t.Fatalf("user(%q) = %q, %v", v, u, ok)
	}
	other, _ := newSessions(time.Hour)
	if _, ok := other.user(v); ok {
		t.Error("a cookie signed with another key was accepted")
	}
	for _, bad := range []string{"", "x", v + "x", "." + v, v[:len(v)-2]} {
		if _, ok := s.user(bad); ok {
			t.Errorf("user(%q) accepted", bad)
		}
	}
	now = now.Add(time.Hour)
	if _, ok := s.user(v); ok {
		t.Error("an expired session was accepted")
	}
}
