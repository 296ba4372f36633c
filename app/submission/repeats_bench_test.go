package submission_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/filestore"
	"github.com/bulkdesk/bulkdesk/app/submission/memstore"
	"github.com/bulkdesk/bulkdesk/app/submission/recordhttp"
)

// benchRecord is 100 bulks of 10,000 operations each: a million recorded
// fingerprints. With repeat set, the last bulk holds the plan's elements.
func benchRecord(plan *submission.Plan, repeat bool) *submission.Record {
	r := &submission.Record{Listed: map[string]bulkapi.BulkProcess{}}
	rng := rand.NewChaCha8([32]byte{1})
	for b := range 100 {
		fps := make([]byte, submission.FingerprintSize*10_000)
		_, _ = rng.Read(fps)
		if repeat && b == 99 {
			fps = plan.Chunks[0].Fingerprints
		}
		id := strconv.Itoa(1000 + b)
		r.Bulks = append(r.Bulks, submission.RecordedBulk{BulkID: id, Kind: "transfers", Status: bulkapi.Submitted, Seen: time.Now(), Fingerprints: fps})
		r.Listed[id] = bulkapi.BulkProcess{BulkID: id, Status: bulkapi.Submitted}
	}
	return r
}

// BenchmarkRepeatCheckWarm checks a 10,000-element file against a cached
// record of 100 bulks × 10,000 operations: no fetching, as in the console
// once the worker holds the record.
func BenchmarkRepeatCheckWarm(b *testing.B) {
	plan := mustPlan(b, request(10_000), submission.PlanOptions{})
	now := time.Now()
	for _, repeat := range []bool{false, true} {
		record := benchRecord(plan, repeat)
		b.Run(fmt.Sprintf("repeats=%t", repeat), func(b *testing.B) {
			for b.Loop() {
				reps := submission.FindRepeats(plan, nil, record, now)
				if repeat && len(reps) != 10_000 || !repeat && len(reps) != 0 {
					b.Fatalf("%d repeats", len(reps))
				}
			}
		})
	}
}

// BenchmarkRecordFileLoad reads the command line's record file of a
// million fingerprints (the console keeps its record in IndexedDB: see
// BenchmarkBrowserRecordLoad).
func BenchmarkRecordFileLoad(b *testing.B) {
	if runtime.GOOS == "js" {
		b.Skip("the command line's record")
	}
	plan := mustPlan(b, request(10), submission.PlanOptions{})
	record := benchRecord(plan, false)
	f := filestore.NewRecordCache(filepath.Join(b.TempDir(), "journal.record.json"))
	ctx := context.Background()
	if err := f.Update(ctx, "s", record.Bulks, nil); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		got, err := f.Load(ctx, "s")
		if err != nil || len(got) != 100 {
			b.Fatal(len(got), err)
		}
	}
}

// pagedAPI serves bulks and their operations as the contract pages them,
// 100 a page, every bulk holding the same 10,000 transfers; the pages are
// encoded once, so that the figure is the client's work.
type pagedAPI struct {
	bulks int
	list  [][]byte // pages of the bulk list
	ops   [][]byte // pages of every bulk's operations
}

func newPagedAPI(bulks, ops int) *pagedAPI {
	p := &pagedAPI{bulks: bulks}
	var all []bulkapi.BulkProcess
	for b := range bulks {
		all = append(all, bulkapi.BulkProcess{BulkID: strconv.Itoa(1000 + b), Status: bulkapi.Submitted, SubmittedItemsCount: ops, Operation: "POST /transfers"})
	}
	for off := 0; off < len(all); off += 100 {
		got := all[off:min(off+100, len(all))]
		data, _ := json.Marshal(bulkapi.BulkPage{Count: len(all), ResponseCount: len(got), Bulks: got})
		p.list = append(p.list, data)
	}
	for off := 0; off < ops; off += 100 {
		var page bulkapi.OperationPage
		page.Count = ops
		for i := off; i < min(off+100, ops); i++ {
			// Other transfers than the plan's: request(n) pays 1000+i.
			payload := fmt.Sprintf(`{"profileId":"110321","source":{"type":"managed_accounts","id":"%d"},"destination":{"type":"managed_cards","id":"3%d"},"destinationAmount":{"currency":"EUR","amount":%d},"description":"Salary %d"}`, 100+i, i, 5000+i, i)
			page.Operations = append(page.Operations, bulkapi.Operation{OperationID: strconv.Itoa(i), Sequence: i, Method: "POST", Path: "/transfers", Status: bulkapi.OpSubmitted, RequestPayload: payload})
		}
		page.ResponseCount = len(page.Operations)
		data, _ := json.Marshal(page)
		p.ops = append(p.ops, data)
	}
	return p
}

func (p *pagedAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	off, _ := strconv.Atoi(r.URL.Query().Get("offset"))
	pages := p.list
	if strings.HasSuffix(r.URL.Path, "/operations") {
		pages = p.ops
	}
	if off/100 >= len(pages) {
		w.Write([]byte(`{"count":0,"responseCount":0}`))
		return
	}
	w.Write(pages[off/100])
}

// BenchmarkRepeatCheckCold fetches the record of 10 or 100 bulks × 10,000
// operations (101 page requests a bulk, served in-process through the real
// client) into an empty cache, then checks a 10,000-element file. It takes
// seconds an iteration: it runs only with BULKDESK_BENCH_COLD=1, as in
//
//	BULKDESK_BENCH_COLD=1 go test -run '^$' -bench RepeatCheckCold -benchtime 1x -count 3 ./app/submission/
func BenchmarkRepeatCheckCold(b *testing.B) {
	if os.Getenv("BULKDESK_BENCH_COLD") == "" {
		b.Skip("set BULKDESK_BENCH_COLD=1: each iteration takes seconds")
	}
	for _, bulks := range []int{10, 100} {
		b.Run(fmt.Sprintf("bulks=%d", bulks), func(b *testing.B) {
			api := newPagedAPI(bulks, 10_000)
			cl, err := bulkapi.New(bulkapi.Config{BaseURL: "http://api.test/multi", APIKey: "k", Token: "t", Transport: bulkapi.HandlerTransport(api)})
			if err != nil {
				b.Fatal(err)
			}
			plan := mustPlan(b, request(10_000), submission.PlanOptions{})
			ctx := context.Background()
			for b.Loop() {
				now := time.Now()
				r, err := submission.UpdateRecord(ctx, cl, memstore.NewRecordCache(), "s", now, nil, nil)
				if err != nil || r.Fetched != bulks {
					b.Fatal(r, err)
				}
				if reps := submission.FindRepeats(plan, nil, r, now); len(reps) != 0 {
					b.Fatalf("%d repeats", len(reps))
				}
			}
		})
	}
}

// BenchmarkServerRecordRead reads a server's answer holding a record of a
// million fingerprints (100 bulks × 10,000), as the console's worker does
// when its server keeps the record (compare BenchmarkBrowserRecordLoad,
// the same record from IndexedDB).
func BenchmarkServerRecordRead(b *testing.B) {
	plan := mustPlan(b, request(10), submission.PlanOptions{})
	var answer strings.Builder
	if err := json.NewEncoder(&answer).Encode(recordhttp.Line{Record: benchRecord(plan, false)}); err != nil {
		b.Fatal(err)
	}
	body := answer.String()
	b.SetBytes(int64(len(body)))
	hc := &http.Client{Transport: bulkapi.HandlerTransport(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/x-ndjson")
		_, _ = w.Write([]byte(body))
	}))}
	ctx := context.Background()
	for b.Loop() {
		r, err := recordhttp.Fetch(ctx, hc, "http://console.test/record/api", nil, nil, nil, nil)
		if err != nil || len(r.Bulks) != 100 || len(r.Bulks[0].Fingerprints) != 160_000 {
			b.Fatal(err)
		}
	}
}
