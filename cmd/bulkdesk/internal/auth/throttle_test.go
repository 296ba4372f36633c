package auth

import (
	"fmt"
	"testing"
	"time"
)

func TestThrottleRemembersABoundedNumberOfNamesAndAddresses(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	th := newThrottle(func() time.Time { return now }, 3)
	fail := func(name, client string) {
		t.Helper()
		if wait, by := th.try(name, client); wait > 0 {
			t.Fatalf("%s from %s refused by %s for %v", name, client, by, wait)
		}
		th.done(name, client, false)
	}
	for range lockAfter {
		now = now.Add(lockFor) // past any wait
		fail("ada", "10.0.0.1")
	}
	// Made-up names from made-up addresses, as many as a client likes.
	for i := range 1000 {
		fail(fmt.Sprintf("made-up-%d", i), fmt.Sprintf("192.0.2.%d", i%250))
		if len(th.names.m) > 3 || len(th.clients.m) > 3 {
			t.Fatalf("after %d names: %d names and %d addresses remembered, want at most 3", i+1, len(th.names.m), len(th.clients.m))
		}
	}
	// The one locked out stays so: the made-up ones failed once each.
	if wait, by := th.try("ada", "10.0.0.9"); wait != lockFor || by != "name" {
		t.Errorf("ada after the flood: wait %v by %q, want %v by name", wait, by, lockFor)
	}
	if wait, by := th.try("bob", "10.0.0.1"); wait != lockFor || by != "address" {
		t.Errorf("ada's address after the flood: wait %v by %q, want %v by address", wait, by, lockFor)
	}
	// What is forgotten goes first, before anything counted.
	now = now.Add(forgetAfter)
	fail("carol", "10.0.0.2")
	if _, ok := th.names.m["ada"]; ok {
		t.Error("ada is remembered an hour after her latest failure")
	}
}
