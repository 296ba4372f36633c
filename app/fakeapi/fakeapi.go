// Package fakeapi is the embedded-finance API as the clients' tests need
// it, in-process: it takes transfer bulks (deduplicating them by
// idempotency-ref), lists and details them, pages their operations with
// each one's requestPayload and executes them; it can refuse or hold
// submissions, and counts what it was asked.
//
// Serve it through bulkapi.HandlerTransport; it opens no listener, so the
// tests under app/ use it under WebAssembly too.
package fakeapi

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
)

// Credentials the API takes unless its Key and Token are changed.
const (
	Key   = "key"
	Token = "tok"
)

// FirstBulkID is the id of the first bulk the API makes; the next count up.
const FirstBulkID = 500

// DefaultPageSize is the page size of a listing that asks for none.
const DefaultPageSize = 100

// API is a fake of the bulk endpoints. Set its fields before it serves.
type API struct {
	// Key and Token are the api-key and bearer token it accepts; "" takes
	// any.
	Key, Token string
	// Refuse, when set, is asked about every submission n (from 1) before
	// it is taken: a status other than 0 answers it instead, with answer
	// as the body (a 429 says to retry in a second).
	Refuse func(n int, body []byte) (status int, answer string)
	// Gate, when set, holds every submission until it is closed; a caller
	// who gives up meanwhile sees a dropped connection.
	Gate chan struct{}
	// Held, when set, is told when a submission waits at Gate, as long as
	// it has room (make it with a buffer of 1): a test learns the request
	// is in flight without waiting a while.
	Held chan struct{}

	mu         sync.Mutex
	byRef      map[string]string // idempotency-ref → bulk id
	bulks      []*bulk           // oldest first
	made       int               // bulks made, removed ones included
	posts      int
	refs       []string       // the idempotency-ref of every submission
	refuseNext int            // submissions still to refuse with a 400
	reads      map[string]int // bulk id → operation pages read
}

type bulk struct {
	id      string
	status  bulkapi.Status
	started int64  // executionStart, Unix ms; 0 until it runs
	op      string // its operation, as listed
	ops     []bulkapi.Operation
}

// New returns an API without bulks that takes Key and Token.
func New() *API {
	return &API{Key: Key, Token: Token, byRef: map[string]string{}, reads: map[string]int{}}
}

// RefuseNext makes the next n submissions fail with a 400, taking nothing.
func (a *API) RefuseNext(n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.refuseNext = n
}

// Bulks is how many bulks the API holds.
func (a *API) Bulks() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.bulks)
}

// Refs are the idempotency-refs of the submissions received, refused ones
// included, in order.
func (a *API) Refs() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.refs...)
}

// Reads is how many pages of operations were read, by bulk id.
func (a *API) Reads() map[string]int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return maps.Clone(a.reads)
}

// OperationReads is how many pages of operations were read in all.
func (a *API) OperationReads() int {
	n := 0
	for _, r := range a.Reads() {
		n += r
	}
	return n
}

// Add makes a bulk of transfers in status, whose operations carry
// payloads as their requestPayload, as if it had been submitted (and run
// from started, unless that is zero); it returns the bulk's id.
func (a *API) Add(status bulkapi.Status, started time.Time, payloads ...string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var ms int64
	if !started.IsZero() {
		ms = started.UnixMilli()
	}
	return a.add(status, ms, payloads)
}

func (a *API) add(status bulkapi.Status, started int64, payloads []string) string {
	id := strconv.Itoa(FirstBulkID + a.made)
	a.made++
	b := &bulk{id: id, status: status, started: started, op: "POST /transfers"}
	for i, p := range payloads {
		b.ops = append(b.ops, bulkapi.Operation{OperationID: fmt.Sprintf("op-%s-%d", id, i), Sequence: i, Method: "POST", Path: "/transfers", Status: bulkapi.OpSubmitted, RequestPayload: p})
	}
	a.bulks = append(a.bulks, b)
	return id
}

// SetOperation makes bulk id list as a bulk of operation, such as
// "POST /sends".
func (a *API) SetOperation(id, operation string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if b := a.bulk(id); b != nil {
		b.op = operation
	}
}

// Remove forgets bulk id, as if it had never been made.
func (a *API) Remove(id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.bulks = slices.DeleteFunc(a.bulks, func(b *bulk) bool { return b.id == id })
}

// ResetReads forgets the pages of operations read so far.
func (a *API) ResetReads() {
	a.mu.Lock()
	defer a.mu.Unlock()
	clear(a.reads)
}

// Client returns a client of the API h (an API or a Script) that calls it
// in-process with Key and Token.
func Client(h http.Handler) *bulkapi.Client {
	c, err := bulkapi.New(bulkapi.Config{BaseURL: "http://api.test/multi", APIKey: Key, Token: Token, Transport: bulkapi.HandlerTransport(h)})
	if err != nil {
		panic(err) // a constant configuration
	}
	return c
}

func (a *API) bulk(id string) *bulk {
	for _, b := range a.bulks {
		if b.id == id {
			return b
		}
	}
	return nil
}

func (b *bulk) view(details bool) bulkapi.BulkProcess {
	v := bulkapi.BulkProcess{BulkID: b.id, Status: b.status, SubmittedItemsCount: len(b.ops), Operation: b.op}
	v.ExecutionStart = b.started
	if details {
		n := make(map[bulkapi.OperationStatus]int)
		for _, op := range b.ops {
			n[op.Status]++
		}
		for _, s := range bulkapi.OperationStatuses() {
			if n[s] > 0 {
				v.OperationStatusCounts = append(v.OperationStatusCounts, bulkapi.StatusCount{Status: s, Count: n[s]})
			}
		}
	}
	return v
}

func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set(bulkapi.HeaderRequestRef, "req-"+strconv.Itoa(int(time.Now().UnixNano()%1e6)))
	if a.Key != "" && r.Header.Get("api-key") != a.Key || a.Token != "" && r.Header.Get("Authorization") != "Bearer "+a.Token {
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"message":"who are you?"}`)
		return
	}
	path := r.URL.Path
	if i := strings.Index(path, "/bulks"); i >= 0 {
		path = path[i:]
	}
	if r.Method == "POST" && path == "/bulks/transfers" {
		a.submit(w, r)
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	q := r.URL.Query()
	offset, _ := strconv.Atoi(q.Get("offset"))
	limit, _ := strconv.Atoi(q.Get("limit"))
	if limit == 0 {
		limit = DefaultPageSize
	}
	parts := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case r.Method == "GET" && path == "/bulks":
		listed := a.bulks
		if st := q.Get("status"); st != "" {
			listed = slices.DeleteFunc(slices.Clone(listed), func(b *bulk) bool { return string(b.status) != st })
		}
		page := bulkapi.BulkPage{Count: len(listed), Bulks: []bulkapi.BulkProcess{}}
		for i := len(listed) - 1 - offset; i >= 0 && len(page.Bulks) < limit; i-- {
			page.Bulks = append(page.Bulks, listed[i].view(false))
		}
		page.ResponseCount = len(page.Bulks)
		json.NewEncoder(w).Encode(page)
	case len(parts) >= 2 && parts[0] == "bulks" && a.bulk(parts[1]) != nil:
		b := a.bulk(parts[1])
		switch {
		case r.Method == "GET" && len(parts) == 2:
			json.NewEncoder(w).Encode(b.view(true))
		case r.Method == "GET" && len(parts) == 3 && parts[2] == "operations":
			a.reads[b.id]++
			end := min(len(b.ops), offset+limit)
			ops := b.ops[min(offset, end):end]
			json.NewEncoder(w).Encode(bulkapi.OperationPage{Count: len(b.ops), ResponseCount: len(ops), Operations: ops})
		case r.Method == "POST" && len(parts) == 3 && parts[2] == "execute":
			b.execute()
			w.WriteHeader(http.StatusNoContent)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	default:
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"message":"no such endpoint"}`)
	}
}

// submit takes a bulk of transfers, or answers the earlier bulk of its
// idempotency-ref with the same 201.
func (a *API) submit(w http.ResponseWriter, r *http.Request) {
	if a.Gate != nil {
		select {
		case a.Held <- struct{}{}: // nil, or full: no one is told
		default:
		}
		select {
		case <-a.Gate:
		case <-r.Context().Done():
			return // the caller gave up: as a dropped connection
		}
	}
	body, _ := io.ReadAll(r.Body)
	ref := r.Header.Get(bulkapi.HeaderIdempotencyRef)
	a.mu.Lock()
	defer a.mu.Unlock()
	a.posts++
	a.refs = append(a.refs, ref)
	if a.refuseNext > 0 {
		a.refuseNext--
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"message":"refused for the test"}`)
		return
	}
	if a.Refuse != nil {
		if status, answer := a.Refuse(a.posts, body); status != 0 {
			if status == http.StatusTooManyRequests {
				w.Header().Set(bulkapi.HeaderRateLimitReset, "1")
			}
			w.WriteHeader(status)
			io.WriteString(w, answer)
			return
		}
	}
	id, seen := a.byRef[ref]
	if !seen {
		var elements []struct {
			RequestBody json.RawMessage `json:"requestBody"`
		}
		if err := json.Unmarshal(body, &elements); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"message":"not a JSON array"}`)
			return
		}
		payloads := make([]string, len(elements))
		for i, e := range elements {
			payloads[i] = string(e.RequestBody)
		}
		id = a.add(bulkapi.Submitted, 0, payloads)
		if ref != "" {
			a.byRef[ref] = id
		}
	}
	w.WriteHeader(http.StatusCreated)
	fmt.Fprintf(w, `{"bulkId":%q,"operationCount":%d,"path":"/bulks/%s"}`, id, len(a.bulk(id).ops), id)
}

// execute runs every operation: one whose payload holds the sandbox's
// fixture.FailMarker fails, declined; the others complete.
func (b *bulk) execute() {
	b.status, b.started = bulkapi.Completed, 1_700_000_000_000
	for i := range b.ops {
		op := &b.ops[i]
		if strings.Contains(op.RequestPayload, fixture.FailMarker) {
			op.Status, op.ResponsePayload = bulkapi.OpFailed, `{"errorCode":"DECLINED","message":"no"}`
			b.status = bulkapi.PartiallyCompleted
			continue
		}
		op.Status, op.ResponsePayload = bulkapi.OpCompleted, fmt.Sprintf(`{"id":"t%d"}`, 9000+i)
	}
}
