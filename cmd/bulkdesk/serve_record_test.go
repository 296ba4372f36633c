//go:build !js

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/memstore"
	"github.com/bulkdesk/bulkdesk/app/submission/recordhttp"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/pgtest"
	"github.com/bulkdesk/bulkdesk/schema"
)

// tenants is one API base URL serving two identities, each with bulks of
// its own, told apart by their bearer tokens.
type tenants map[string]*fakeapi.API

func (ts tenants) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if api, ok := ts[r.Header.Get("Authorization")]; ok {
		api.ServeHTTP(w, r)
		return
	}
	w.WriteHeader(http.StatusUnauthorized)
	w.Write([]byte(`{"message":"who are you?"}`))
}

// TestTwoServersReadEachBulkOnce: the repeat check's record of the API's
// bulks is kept in the shared database, so a bulk's operations read for a
// check through one server are not read again for a check through the
// other; each identity gets the bulks of its own listing only.
func TestTwoServersReadEachBulkOnce(t *testing.T) {
	dsn := pgtest.Start(t)
	transfers, _ := schema.Lookup("transfers")
	bodies := []string{
		`{"profileId":"110","tag":"rent","destinationAmount":{"currency":"EUR","amount":150000}}`,
		`{"profileId":"110","tag":"fees","destinationAmount":{"currency":"EUR","amount":2500}}`,
	}
	alices, bobs := fakeapi.New(), fakeapi.New()
	alices.Key, alices.Token, bobs.Key, bobs.Token = "k", "alice", "k", "bob"
	aliceBulk := alices.Add(bulkapi.Submitted, time.Time{}, bodies...)
	bobs.Remove(bobs.Add(bulkapi.Submitted, time.Time{})) // ids are the API's: bob's bulk is another
	bobBulk := bobs.Add(bulkapi.Submitted, time.Time{}, bodies[0])
	api := httptest.NewServer(tenants{"Bearer alice": alices, "Bearer bob": bobs})
	t.Cleanup(api.Close)

	args := []string{"-auth", "header", "-trusted-proxies", "127.0.0.1/32", "-api-url", api.URL + "/multi", "-store", dsn}
	one, two := startSecured(t, args...), startSecured(t, args...)
	waitHealthz(t, one, http.StatusOK)
	waitHealthz(t, two, http.StatusOK)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	read := func(s *securedServe, token string, progress func(done, total int)) (*submission.Record, error) {
		creds := http.Header{"Api-Key": {"k"}, "Authorization": {"Bearer " + token}}
		return recordhttp.Fetch(ctx, &http.Client{Transport: asUser{"ops"}}, s.url+"record/api", creds, transfers, nil, progress)
	}

	var progressed int
	first, err := read(one, "alice", func(done, total int) { progressed = total })
	if err != nil || first.Fetched != 1 || len(first.Bulks) != 1 || first.Bulks[0].BulkID != aliceBulk || progressed != 1 {
		t.Fatalf("alice through the first server: %+v, progress %d, %v", first, progressed, err)
	}
	for i, body := range bodies {
		want, err := submission.ElementFingerprint(transfers, fixture.Decode(`{"requestBody":`+body+`}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := first.Bulks[0].Fingerprints[i*submission.FingerprintSize:][:submission.FingerprintSize]; !bytes.Equal(got, want[:]) {
			t.Errorf("operation %d's fingerprint is not its element's", i)
		}
	}
	second, err := read(two, "alice", nil)
	if err != nil || second.Fetched != 0 || second.Cached != 1 || len(second.Bulks) != 1 || !bytes.Equal(second.Bulks[0].Fingerprints, first.Bulks[0].Fingerprints) {
		t.Fatalf("alice through the second server: %+v, %v", second, err)
	}
	if n := alices.OperationReads(); n != 1 {
		t.Errorf("alice's bulk was read %d times, want once", n)
	}
	// A browser names the bulks it holds: their fingerprints are left out
	// of the answer, and taken from its own cache.
	cache := memstore.NewRecordCache()
	hc := &http.Client{Transport: asUser{"ops"}}
	aliceCreds := http.Header{"Api-Key": {"k"}, "Authorization": {"Bearer alice"}}
	for range 2 {
		got, err := recordhttp.Fetch(ctx, hc, two.url+"record/api", aliceCreds, transfers, cache, nil)
		if err != nil || len(got.Bulks) != 1 || !bytes.Equal(got.Bulks[0].Fingerprints, first.Bulks[0].Fingerprints) {
			t.Fatalf("alice with a cache: %+v, %v", got, err)
		}
	}
	res, body := call(t, "POST", two.url+"record/api", header("X-Forwarded-User", "ops"), header("Api-Key", "k"), header("Authorization", "Bearer alice"),
		func(r *http.Request) {
			r.Body = io.NopCloser(strings.NewReader(`{"kind":"transfers","held":["` + aliceBulk + `"]}`))
		})
	lines := strings.Split(strings.TrimSpace(body), "\n")
	var last recordhttp.Line
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil || res.StatusCode != http.StatusOK || last.Record == nil ||
		fmt.Sprint(last.Held) != "["+aliceBulk+"]" || len(last.Record.Bulks) != 1 || len(last.Record.Bulks[0].Fingerprints) != 0 {
		t.Errorf("a held bulk's answer: %d %.300s", res.StatusCode, body)
	}
	bob, err := read(two, "bob", nil)
	if err != nil || len(bob.Bulks) != 1 || bob.Bulks[0].BulkID != bobBulk || len(bob.Listed) != 1 {
		t.Fatalf("bob sees %+v, %v; want his bulk %s alone", bob, err, bobBulk)
	}
	if _, err := read(one, "mallory", nil); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("unknown credentials: %v", err)
	}
	if res, _ := call(t, "POST", one.url+"record/api"); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("without signing in: %d", res.StatusCode)
	}
}

// TestAServerKeepsTheRecordUnderItsStateDir: a single server keeps the
// record in its state folder, through a restart; without a state folder
// or a database it offers none, and the console keeps its own.
func TestAServerKeepsTheRecordUnderItsStateDir(t *testing.T) {
	transfers, _ := schema.Lookup("transfers")
	api := fakeapi.New()
	api.Key, api.Token = "k", "alice"
	api.Add(bulkapi.Submitted, time.Time{}, `{"profileId":"110","tag":"rent","destinationAmount":{"currency":"EUR","amount":150000}}`)
	upstream := httptest.NewServer(api)
	t.Cleanup(upstream.Close)
	dir := t.TempDir()
	args := []string{"-auth", "header", "-trusted-proxies", "127.0.0.1/32", "-api-url", upstream.URL + "/multi", "-state-dir", dir}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	creds := http.Header{"Api-Key": {"k"}, "Authorization": {"Bearer alice"}}
	hc := &http.Client{Transport: asUser{"ops"}}

	s := startSecured(t, args...)
	if r, err := recordhttp.Fetch(ctx, hc, s.url+"record/api", creds, transfers, nil, nil); err != nil || r.Fetched != 1 {
		t.Fatalf("the first check: %+v, %v", r, err)
	}
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}
	s = startSecured(t, args...)
	if r, err := recordhttp.Fetch(ctx, hc, s.url+"record/api", creds, transfers, nil, nil); err != nil || r.Fetched != 0 || r.Cached != 1 {
		t.Fatalf("after a restart: %+v, %v", r, err)
	}
	if api.OperationReads() != 1 {
		t.Errorf("the bulk was read %d times", api.OperationReads())
	}
	for flags, want := range map[string]bool{"-state-dir " + dir: true, "-store postgres://db.internal/ops": true, "": false} {
		cfg, err := parseServe(append([]string{"-addr", "127.0.0.1:0", "-api-url", upstream.URL}, strings.Fields(flags)...), func(string) string { return "" }, io.Discard)
		if err != nil || consoleAPI(cfg).Record != want {
			t.Errorf("%q: the console is told of a record: %v, want %v (%v)", flags, consoleAPI(cfg).Record, want, err)
		}
	}

	bare := startSecured(t, "-auth", "header", "-trusted-proxies", "127.0.0.1/32", "-api-url", upstream.URL+"/multi")
	if res, _ := call(t, "POST", bare.url+"record/api", header("X-Forwarded-User", "ops")); res.StatusCode != http.StatusNotFound {
		t.Errorf("a server without a record answered %d", res.StatusCode)
	}
}
