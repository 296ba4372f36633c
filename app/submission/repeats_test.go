package submission_test

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/filestore"
	"github.com/bulkdesk/bulkdesk/app/submission/memstore"
	"github.com/bulkdesk/bulkdesk/schema"
)

func fingerprint(t testing.TB, k *schema.Kind, doc string) submission.Fingerprint {
	t.Helper()
	fp, err := submission.ElementFingerprint(k, fixture.Decode(doc))
	if err != nil {
		t.Fatal(err)
	}
	return fp
}

func TestFingerprintsFollowWhatTheElementDoes(t *testing.T) {
	sends, _ := schema.Lookup("sends")
	blocks, _ := schema.Lookup("card_blocks")
	a := fingerprint(t, transfers, `{"pathParams":{},"requestBody":{"profileId":"1","tag":"x\u0041","destinationAmount":{"currency":"EUR","amount":150}}}`)
	// Key order, spaces, string escapes and an empty pathParams change
	// nothing: the canonical form writes them one way.
	for _, doc := range []string{
		`{"requestBody":{"destinationAmount":{"amount":150,"currency":"EUR"},"tag":"xA","profileId":"1"}}`,
		"{ \"requestBody\" : {\n\"tag\":\"\\u0078A\", \"profileId\":\"1\",\"destinationAmount\":{\"amount\": 150 ,\"currency\":\"EUR\"}}, \"pathParams\":{} }",
	} {
		if fp := fingerprint(t, transfers, doc); fp != a {
			t.Errorf("%s: another fingerprint", doc)
		}
	}
	// A number decoded from a spreadsheet (float64, int) or JSON (json.Number)
	// is written the same way.
	asFloat := map[string]any{"requestBody": map[string]any{"profileId": "1", "tag": "xA", "destinationAmount": map[string]any{"currency": "EUR", "amount": float64(150)}}}
	if fp, err := submission.ElementFingerprint(transfers, asFloat); err != nil || fp != a {
		t.Errorf("a float64 amount: %v", err)
	}
	for name, fp := range map[string]submission.Fingerprint{
		"another amount": fingerprint(t, transfers, `{"requestBody":{"profileId":"1","tag":"xA","destinationAmount":{"currency":"EUR","amount":151}}}`),
		"another kind":   fingerprint(t, sends, `{"requestBody":{"profileId":"1","tag":"xA","destinationAmount":{"currency":"EUR","amount":150}}}`),
	} {
		if fp == a {
			t.Errorf("%s: the same fingerprint", name)
		}
	}
	// The path parameter is part of it: blocking two cards is two things.
	b1 := fingerprint(t, blocks, `{"pathParams":{"_id_":"123"}}`)
	if b2 := fingerprint(t, blocks, `{"pathParams":{"_id_":"124"}}`); b1 == b2 {
		t.Error("two cards, one fingerprint")
	}
	// The operation the API made of an element has the element's fingerprint.
	for _, tc := range []struct {
		kind *schema.Kind
		el   string
		op   bulkapi.Operation
	}{
		{transfers, `{"requestBody":{"tag":"xA","profileId":"1","destinationAmount":{"currency":"EUR","amount":150}}}`,
			bulkapi.Operation{Method: "POST", Path: "/transfers", RequestPayload: `{"destinationAmount":{"amount":150,"currency":"EUR"},"profileId":"1","tag":"x\u0041"}`}},
		{blocks, `{"pathParams":{"_id_":"123"}}`, bulkapi.Operation{Method: "POST", Path: "/managed_cards/123/block"}},
		{blocks, `{"pathParams":{"_id_":"123"},"requestBody":{}}`, bulkapi.Operation{Method: "POST", Path: "/multi/managed_cards/123/block", RequestPayload: "null"}},
	} {
		op, ok := submission.OperationFingerprint(tc.kind, &tc.op)
		if !ok || op != fingerprint(t, tc.kind, tc.el) {
			t.Errorf("%s and %+v: ok %v, not the same fingerprint", tc.el, tc.op, ok)
		}
	}
	// A path that does not name the card matches nothing.
	if _, ok := submission.OperationFingerprint(blocks, &bulkapi.Operation{Method: "POST", Path: "/managed_cards/{id}/block"}); ok {
		t.Error("a template path was fingerprinted")
	}
	if k, ok := submission.KindOfOperation("POST /managed_cards/{id}/unblock"); !ok || k.ID != "card_unblocks" {
		t.Errorf("kind of an operation: %v", k)
	}
}

// addBulk makes a bulk of the transfers elements in api, returning its id.
func addBulk(t testing.TB, api *fakeapi.API, elements []any, status bulkapi.Status, started time.Time) string {
	t.Helper()
	payloads := make([]string, len(elements))
	for i, e := range elements {
		body, err := jsonOf(e.(map[string]any)["requestBody"])
		if err != nil {
			t.Fatal(err)
		}
		payloads[i] = body
	}
	return api.Add(status, started, payloads...)
}

func elementsOf(els []any, idx ...int) []any {
	out := make([]any, len(idx))
	for n, i := range idx {
		out[n] = els[i]
	}
	return out
}

func TestTheRecordIsFetchedOnceABulk(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	els := request(40)
	api := fakeapi.New()
	client := fakeapi.Client(api)
	first := addBulk(t, api, els[0:10], bulkapi.Submitted, time.Time{})
	addBulk(t, api, els[10:20], bulkapi.Completed, now.Add(-40*24*time.Hour)) // too old to count
	addBulk(t, api, els[20:30], bulkapi.Cancelled, time.Time{})               // never ran
	for name, cache := range map[string]submission.RecordCache{
		"memory": memstore.NewRecordCache(),
		"file":   filestore.NewRecordCache(filepath.Join(t.TempDir(), "journal.record.json")),
	} {
		t.Run(name, func(t *testing.T) {
			api.ResetReads()
			r, err := submission.UpdateRecord(ctx, client, cache, "https://api", now, nil, nil)
			if err != nil || r.Fetched != 1 || len(r.Bulks) != 1 || api.OperationReads() != 1 {
				t.Fatalf("first check: %+v, %d fetches, %v", r, api.OperationReads(), err)
			}
			// A second check fetches only the bulk made since.
			second := addBulk(t, api, els[30:40], bulkapi.Submitted, time.Time{})
			defer api.Remove(second)
			r, err = submission.UpdateRecord(ctx, client, cache, "https://api", now, nil, nil)
			if reads := api.Reads(); err != nil || r.Fetched != 1 || r.Cached != 1 || reads[second] != 1 || reads[first] != 1 {
				t.Fatalf("second check: %+v, reads %v, %v", r, reads, err)
			}
			// A third fetches nothing.
			if r, err = submission.UpdateRecord(ctx, client, cache, "https://api", now, nil, nil); err != nil || r.Fetched != 0 || api.OperationReads() != 2 {
				t.Fatalf("third check: %+v, reads %v, %v", r, api.Reads(), err)
			}
			plan := mustPlan(t, els, submission.PlanOptions{})
			reps := submission.FindRepeats(plan, nil, r, now)
			if len(reps) != 20 || reps[0].Element != 0 || reps[0].Earlier.BulkID != first || reps[19].Element != 39 || reps[19].Earlier.BulkID != second {
				t.Fatalf("repeats: %d %+v", len(reps), reps)
			}
			if fr, ok := cache.(*filestore.RecordCache); ok {
				if st, err := os.Stat(fr.Path()); err != nil || st.Mode().Perm() != 0o600 {
					t.Errorf("record file: %v %v", st.Mode(), err)
				}
			}
		})
	}
}

// TestASharedRecordKeepsOtherIdentitiesBulks: a server's cache serves
// several identities of one API, so a check forgets only the bulks its own
// listing shows no longer counting, and those nobody has listed for a
// RepeatWindow; it returns only the bulks its listing shows.
func TestASharedRecordKeepsOtherIdentitiesBulks(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	els := request(20)
	api := fakeapi.New()
	mine := addBulk(t, api, els[0:10], bulkapi.Submitted, time.Time{})
	cancelled := addBulk(t, api, els[10:20], bulkapi.Cancelled, time.Time{})
	cache := memstore.NewRecordCache()
	others := []submission.RecordedBulk{
		{BulkID: "someone-elses", Kind: "transfers", Status: bulkapi.Submitted, Seen: now.Add(-time.Hour), Fingerprints: make([]byte, submission.FingerprintSize)},
		{BulkID: "nobodys-for-long", Kind: "transfers", Status: bulkapi.Completed, ExecutionStart: now.Add(-submission.RepeatWindow - time.Hour).UnixMilli(), Fingerprints: make([]byte, submission.FingerprintSize)},
		{BulkID: cancelled, Kind: "transfers", Status: bulkapi.Submitted, Seen: now.Add(-time.Hour), Fingerprints: make([]byte, 10*submission.FingerprintSize)},
	}
	if err := cache.Update(ctx, "s", others, nil); err != nil {
		t.Fatal(err)
	}
	r, err := submission.UpdateRecord(ctx, fakeapi.Client(api), cache, "s", now, nil, nil)
	if err != nil || len(r.Bulks) != 1 || r.Bulks[0].BulkID != mine {
		t.Fatalf("the check: %+v, %v", r, err)
	}
	kept, _ := cache.Load(ctx, "s")
	if _, ok := kept["someone-elses"]; !ok || len(kept) != 2 {
		t.Errorf("kept %v, want %s and someone-elses", slices.Sorted(maps.Keys(kept)), mine)
	}
}

// TestRepeatsAreFoundWhateverTheChunks submits a file, then checks the
// file's variants: other chunk sizes, the same file after a -valid-only
// submission, a subset, a superset.
func TestRepeatsAreFoundWhateverTheChunks(t *testing.T) {
	ctx := context.Background()
	now := time.Now()
	els := request(250)
	j := memstore.NewJournal()
	api := newFakeAPI(t, j)
	sub := &submission.Submitter{Sender: api, Journal: j}
	// The valid-only submission: element 7 left out.
	var only []int
	for i := range 250 {
		if i != 7 {
			only = append(only, i)
		}
	}
	if _, err := sub.Submit(ctx, mustPlan(t, els, submission.PlanOptions{ChunkSize: 100, Only: only})); err != nil {
		t.Fatal(err)
	}
	entries, _ := j.Entries(ctx)
	for _, e := range entries {
		if e.State != submission.Submitted || len(e.Fingerprints) != submission.FingerprintSize*e.Elements.Len() {
			t.Fatalf("entry %d: %s with %d bytes of fingerprints", e.Chunk, e.State, len(e.Fingerprints))
		}
	}
	for _, tc := range []struct {
		name    string
		opts    submission.PlanOptions
		repeats int
	}{
		{"the fixed file", submission.PlanOptions{ChunkSize: 100}, 249},
		{"other chunks", submission.PlanOptions{ChunkSize: 99}, 249},
		{"a subset", submission.PlanOptions{ChunkSize: 100, Only: []int{3, 7, 200}}, 2},
	} {
		plan := mustPlan(t, els, tc.opts)
		reps := submission.FindRepeats(plan, entries, nil, now)
		if len(reps) != tc.repeats {
			t.Errorf("%s: %d repeats, want %d", tc.name, len(reps), tc.repeats)
			continue
		}
		for _, r := range reps {
			if r.Element == 7 || r.Earlier.BulkID == "" || !r.Earlier.Journal {
				t.Errorf("%s: repeat %+v", tc.name, r)
			}
		}
		// Leaving them out leaves the new element alone.
		left, err := plan.Without(dropOf(reps))
		if err != nil || left.Elements != plan.Elements-tc.repeats || len(submission.FindRepeats(left, entries, nil, now)) != 0 {
			t.Errorf("%s: without the repeats: %+v, %v", tc.name, left, err)
		}
	}
	// A superset: 50 more elements, and the journal's bulks too old to
	// count make no repeat.
	more := request(300)
	if reps := submission.FindRepeats(mustPlan(t, more, submission.PlanOptions{}), entries, nil, now); len(reps) != 249 {
		t.Errorf("superset: %d repeats", len(reps))
	}
	if reps := submission.FindRepeats(mustPlan(t, more, submission.PlanOptions{}), entries, nil, now.Add(36*24*time.Hour)); len(reps) != 0 {
		t.Errorf("36 days later: %d repeats", len(reps))
	}
	// The same plan again: its chunks are submitted under the same refs,
	// so nothing would be sent and nothing repeats.
	if reps := submission.FindRepeats(mustPlan(t, els, submission.PlanOptions{ChunkSize: 100, Only: only}), entries, nil, now); len(reps) != 0 {
		t.Errorf("the same plan: %d repeats", len(reps))
	}
}

func dropOf(reps []submission.Repeat) []int {
	out := make([]int, len(reps))
	for i, r := range reps {
		out[i] = r.Element
	}
	return out
}

// jsonOf writes a decoded value as the sandbox writes a requestPayload.
func jsonOf(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

// TestAPlansFingerprintsAreItsElements checks that the fingerprints a plan
// takes from its canonical body are those of the elements alone, whatever
// the strings in them.
func TestAPlansFingerprintsAreItsElements(t *testing.T) {
	docs := []string{
		`{"pathParams":{},"requestBody":{"tag":"a\"}b\\","x":{"y":"\\\"requestBody\":{"}}}`,
		`{"requestBody":{"profileId":"1"},"zzz":{"a":1}}`,
		`{"requestBody":{}}`,
		`{"requestBody":null,"pathParams":{"x":"}"}}`,
		`{"pathParams":{},"requestBody":{"description":"},\"requestBody\":{"}}`,
		`[1,2]`,
	}
	var els []any
	for _, d := range docs {
		els = append(els, fixture.Decode(d))
	}
	plan := mustPlan(t, els, submission.PlanOptions{})
	for i, d := range docs {
		want := fingerprint(t, transfers, d)
		if got := plan.Chunks[0].Fingerprints[i*submission.FingerprintSize : (i+1)*submission.FingerprintSize]; string(got) != string(want[:]) {
			t.Errorf("%s: the plan's fingerprint differs", d)
		}
	}
}

// TestAResumedChunkIsNotItsOwnRepeat: a chunk whose answer never came is
// sent again with its ref, and the API answers with the bulk the lost
// attempt made: that bulk is no repeat, another one holding its elements
// is.
func TestAResumedChunkIsNotItsOwnRepeat(t *testing.T) {
	ctx := context.Background()
	now := time.Now()
	els := request(20)
	plan := mustPlan(t, els, submission.PlanOptions{ChunkSize: 10})
	j := memstore.NewJournal()
	for _, c := range plan.Chunks {
		e := submission.Entry{Ref: c.Ref, Digest: c.Digest, Submission: plan.ID, Kind: "transfers", Chunk: c.Index, Chunks: 2, Elements: c.Elements, State: submission.Sending, Attempts: 1, Created: now, Updated: now}
		if err := j.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	entries, _ := j.Entries(ctx)
	api := fakeapi.New()
	addBulk(t, api, els[0:10], bulkapi.Submitted, time.Time{}) // what the lost attempt of chunk 1 made
	other := addBulk(t, api, els[15:17], bulkapi.Submitted, time.Time{})
	r, err := submission.UpdateRecord(ctx, fakeapi.Client(api), memstore.NewRecordCache(), "s", now, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	reps := submission.FindRepeats(plan, entries, r, now)
	if len(reps) != 2 || reps[0].Element != 15 || reps[0].Earlier.BulkID != other {
		t.Fatalf("repeats %+v", reps)
	}
	// A day later the API has forgotten the refs: the bulk is a repeat.
	if reps := submission.FindRepeats(plan, entries, r, now.Add(25*time.Hour)); len(reps) != 12 {
		t.Errorf("a day later: %d repeats", len(reps))
	}
}

// TestTheRecordFetchesOnlyTheKindChecked: a check of transfers does not
// read the operations of a bulk of sends.
func TestTheRecordFetchesOnlyTheKindChecked(t *testing.T) {
	ctx := context.Background()
	now := time.Now()
	api := fakeapi.New()
	tr := addBulk(t, api, request(3), bulkapi.Submitted, time.Time{})
	sends := addBulk(t, api, request(2), bulkapi.Submitted, time.Time{})
	api.SetOperation(sends, "POST /sends")
	r, err := submission.UpdateRecord(ctx, fakeapi.Client(api), memstore.NewRecordCache(), "s", now, transfers, nil)
	if reads := api.Reads(); err != nil || r.Fetched != 1 || len(r.Bulks) != 1 || r.Bulks[0].BulkID != tr || reads[sends] != 0 {
		t.Fatalf("record %+v, reads %v, %v", r, reads, err)
	}
}
