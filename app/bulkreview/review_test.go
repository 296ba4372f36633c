package bulkreview_test

import (
	"context"
	"errors"
	"math/big"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/memstore"
	"github.com/bulkdesk/bulkdesk/schema"
)

var transfers = fixture.Kind("transfers")

// submitted is a file submitted to a fake API: its plan, elements and the
// journal's entries.
type submitted struct {
	api      *fakeapi.API
	client   *bulkapi.Client
	plan     *submission.Plan
	elements []any
	entries  []submission.Entry
}

func submit(t testing.TB, api *fakeapi.API, h http.Handler, body []byte, chunkSize int) *submitted {
	t.Helper()
	doc, _, err := schema.DecodeJSON(body)
	if err != nil {
		t.Fatal(err)
	}
	elements := doc.([]any)
	plan, err := submission.NewPlan(transfers, elements, submission.PlanOptions{ChunkSize: chunkSize, Source: "pay.json"})
	if err != nil {
		t.Fatal(err)
	}
	cl := fakeapi.Client(h)
	s := &submission.Submitter{Sender: cl, Journal: memstore.NewJournal()}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	entries, err := s.Submit(ctx, plan)
	if err != nil {
		t.Fatal(err)
	}
	return &submitted{api: api, client: cl, plan: plan, elements: elements, entries: entries}
}

func fetch(t *testing.T, cl *bulkapi.Client, id string) *bulkreview.Review {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := bulkreview.Fetch(ctx, cl, id, bulkreview.Options{Validator: fixture.Validator()})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestAReviewRebuildsTheSubmittedChunks(t *testing.T) {
	api := fakeapi.New()
	s := submit(t, api, api, fixture.SampleBody(250), 120)
	if len(s.entries) != 3 {
		t.Fatalf("%d entries", len(s.entries))
	}
	total := new(big.Int)
	for i, e := range s.entries {
		r := fetch(t, s.client, e.BulkID)
		c := s.plan.Chunks[i]
		hash, err := bulkreview.ChunkRecordSHA256(transfers, c.Body)
		if err != nil || r.BodySHA256 != hash {
			t.Errorf("bulk %s: body hash %s, the chunk's %s (%v)", e.BulkID, r.BodySHA256, hash, err)
		}
		if len(r.Elements) != c.Count() || r.Listed != c.Count() || r.Kind != transfers || r.API() != "standard" || r.Status != bulkapi.Submitted {
			t.Errorf("bulk %s: %d elements of %s (%s, %s), want %d", e.BulkID, len(r.Elements), r.Kind.ID, r.API(), r.Status, c.Count())
		}
		if !r.Valid() || len(r.Notes) > 0 {
			t.Errorf("bulk %s: invalid %v, notes %v", e.BulkID, r.Invalid, r.Notes)
		}
		// The rebuilt elements, sent again, make a body of the same hash:
		// the record form is what submission sends of them.
		again, err := submission.NewPlan(transfers, r.Elements, submission.PlanOptions{})
		if err != nil || bulkreview.SHA256(again.Chunks[0].Body) != r.BodySHA256 {
			t.Errorf("bulk %s: the rebuilt elements' body differs (%v)", e.BulkID, err)
		}
		for n, fp := range r.Fingerprints {
			if string(fp[:]) != string(c.Fingerprints[n*submission.FingerprintSize:(n+1)*submission.FingerprintSize]) {
				t.Fatalf("bulk %s: fingerprint %d differs from the plan's", e.BulkID, n)
			}
		}
		// The totals are the file's chunk's, summed as submission sums it.
		part := &submission.Plan{Kind: transfers, Elements: c.Count(), Chunks: []submission.Chunk{c}}
		want := submission.ControlTotals(part, s.elements).Amounts
		if len(r.Currencies) != 1 || len(want) != 1 || r.Currencies[0].Minor.Cmp(want[0].Minor) != 0 || r.Currencies[0].Count != want[0].Count {
			t.Errorf("bulk %s: totals %v, want %v", e.BulkID, r.Currencies, want)
		}
		if len(r.Sources) == 0 {
			t.Errorf("bulk %s: no source totals", e.BulkID)
		}
		total.Add(total, r.Currencies[0].Minor)
	}
	if want := big.NewInt(int64(fixture.Sample.Total(250))); total.Cmp(want) != 0 {
		t.Errorf("the bulks sum to %s, the file to %s", total, want)
	}
}

func TestAReviewPagesAndReportsProgress(t *testing.T) {
	api := fakeapi.New()
	s := submit(t, api, api, fixture.SampleBody(250), 0)
	id := s.entries[0].BulkID
	api.ResetReads()
	var seen [][2]int
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := bulkreview.Fetch(ctx, s.client, id, bulkreview.Options{Validator: fixture.Validator(), Progress: func(done, total int) { seen = append(seen, [2]int{done, total}) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Elements) != 250 || api.Reads()[id] != 3 {
		t.Errorf("%d elements in %d pages", len(r.Elements), api.Reads()[id])
	}
	if len(seen) != 3 || seen[0] != [2]int{100, 250} || seen[2] != [2]int{250, 250} {
		t.Errorf("progress %v", seen)
	}
}

func TestAReviewStopsWhenCanceled(t *testing.T) {
	api := fakeapi.New()
	s := submit(t, api, api, fixture.SampleBody(250), 0)
	id := s.entries[0].BulkID
	api.ResetReads()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := bulkreview.Fetch(ctx, s.client, id, bulkreview.Options{Progress: func(done, total int) { cancel() }})
	if !errors.Is(err, context.Canceled) || api.Reads()[id] != 1 {
		t.Errorf("canceled after the first page: %v, %d pages read", err, api.Reads()[id])
	}
}

func TestAReviewNamesInvalidAndUnreadableOperations(t *testing.T) {
	api := fakeapi.New()
	id := api.Add(bulkapi.Submitted, time.Time{},
		`{"profileId":"110321","source":{"type":"managed_accounts","id":"1000000"},"destination":{"type":"managed_cards","id":"2000000"},"destinationAmount":{"currency":"EUR","amount":100}}`,
		`{"profileId":"110321","source":{"type":"managed_accounts","id":"1000001"},"destination":{"type":"managed_cards","id":"2000001"},"destinationAmount":{"currency":"eur","amount":5}}`,
		`{not json`)
	r := fetch(t, fakeapi.Client(api), id)
	if len(r.Invalid) != 2 || r.Invalid[0] != 1 || r.Invalid[1] != 2 {
		t.Fatalf("invalid %v: %v", r.Invalid, r.Report.Problems)
	}
	if ps := r.Problems(2); !slices.ContainsFunc(ps, func(p schema.Problem) bool { return p.Code == "unreadable-operation" }) {
		t.Errorf("problems of the unreadable operation: %v", ps)
	}
	if len(r.Currencies) != 2 || !r.Currencies[1].Invalid {
		t.Errorf("totals %v", r.Currencies)
	}
}

func TestRepeatsNameOtherBulksOnly(t *testing.T) {
	api := fakeapi.New()
	s := submit(t, api, api, fixture.SampleBody(5), 0)
	first := s.entries[0].BulkID
	// The same content as a new bulk, as -new-bulk makes it.
	plan, err := submission.NewPlan(transfers, s.elements, submission.PlanOptions{Salt: submission.NewSalt()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	entries, err := (&submission.Submitter{Sender: s.client, Journal: memstore.NewJournal()}).Submit(ctx, plan)
	if err != nil {
		t.Fatal(err)
	}
	second := entries[0].BulkID
	record, err := submission.UpdateRecord(ctx, s.client, memstore.NewRecordCache(), "test", time.Now(), transfers, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := fetch(t, s.client, second)
	reps, err := r.Repeats(append(s.entries, entries...), record, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) != 5 || reps[0].Earlier.BulkID != first || reps[4].Element != 4 {
		t.Errorf("repeats %+v", reps)
	}
	api.Remove(first)
	if record, err = submission.UpdateRecord(ctx, s.client, memstore.NewRecordCache(), "test", time.Now(), transfers, nil); err != nil {
		t.Fatal(err)
	}
	if reps, _ := r.Repeats(nil, record, time.Now()); len(reps) != 0 {
		t.Errorf("a bulk repeats itself: %+v", reps)
	}
}
