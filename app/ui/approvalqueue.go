package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The approval queue: the bulks awaiting a second operator under the
// server's four-eyes rule (GET four-eyes/bulks?state=awaiting), as every
// page of this tab shares them. The navigation counts the ones the
// operator may approve, and the Bulks page lists them. The queue is read
// when a page opens, after an execution or a cancellation, and every
// queueEvery while the tab is in sight, never more often than
// queueAtMost.

const (
	queueEvery  = 30 * time.Second
	queueAtMost = 2 * time.Second
	// queueLimit is how many bulks one read lists: the newest.
	queueLimit = 100
)

// queueAnswer is the server's answer: the bulks awaiting a second
// operator, newest first, the operator's own included.
type queueAnswer struct {
	Rule    bool         `json:"rule"`
	You     string       `json:"you"`
	Bulks   []queuedBulk `json:"bulks"`
	Next    *struct{}    `json:"next"`
	Message string       `json:"message"`
}

// A queuedBulk is one bulk awaiting a second operator, as the server's
// record holds it.
type queuedBulk struct {
	BulkID      string    `json:"bulkId"`
	SubmittedBy string    `json:"submittedBy"`
	SubmittedAt time.Time `json:"submittedAt"`
	// API is "standard" or "backoffice".
	API      string        `json:"api"`
	FileName string        `json:"fileName"`
	Kind     string        `json:"kind"`
	Elements int           `json:"elements"`
	Totals   []queueAmount `json:"totals"`
}

// A queueAmount is a bulk's total in one currency (bulkreview.Amount).
type queueAmount struct {
	Currency        string   `json:"currency"`
	InvalidCurrency bool     `json:"invalidCurrency"`
	Codes           []string `json:"codes"`
	Count           int      `json:"count"`
	Minor           string   `json:"minor"`
	Amount          string   `json:"amount"`
}

// total is the amount as the console's totals are.
func (a queueAmount) total() wire.Total {
	return wire.Total{Currency: a.Currency, Invalid: a.InvalidCurrency, Label: a.Currency, Count: a.Count, Minor: a.Minor, Amount: a.Amount, Codes: a.Codes}
}

// approvalQueue is the tab's copy of the queue.
type approvalQueue struct {
	mu      sync.Mutex
	answer  *queueAnswer
	problem string
	at      time.Time
	busy    bool
	// again asks for another read once the one under way ends: something
	// changed meanwhile.
	again   bool
	watches listeners[struct{}]
	poll    sync.Once
}

var queue approvalQueue

// awaitingYou returns the bulks the operator may approve: every one in
// the queue but their own; more says the server holds older ones.
func (q *approvalQueue) awaitingYou() (bulks []queuedBulk, more, loaded bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	a := q.answer
	if a == nil || !a.Rule {
		return nil, false, a != nil
	}
	for _, b := range a.Bulks {
		if !strings.EqualFold(b.SubmittedBy, a.You) {
			bulks = append(bulks, b)
		}
	}
	return bulks, a.Next != nil, true
}

// find returns the queue's record of a bulk, if it is in the queue.
func (q *approvalQueue) find(id string, backOffice bool) (queuedBulk, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.answer == nil {
		return queuedBulk{}, false
	}
	for _, b := range q.answer.Bulks {
		if b.BulkID == id && (b.API == "backoffice") == backOffice {
			return b, true
		}
	}
	return queuedBulk{}, false
}

// readProblem says why the queue could not be read, "" when it was.
func (q *approvalQueue) readProblem() string {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.problem
}

// watch calls f, from the browser's callback, whenever the queue is read
// again; the function it returns stops that.
func (q *approvalQueue) watch(f func()) (stop func()) {
	return q.watches.add(func(struct{}) { f() })
}

// refresh reads the queue again, unless the server runs no four-eyes
// rule or it was read less than queueAtMost ago; changed says something
// happened that may have changed it (an execution), which reads it now or
// as soon as the read under way ends.
func (q *approvalQueue) refresh(changed bool) {
	if !app.IsClient || !loadConfig().API.FourEyes {
		return
	}
	q.poll.Do(func() { go q.keepReading() })
	q.mu.Lock()
	switch {
	case q.busy:
		q.again = q.again || changed
		q.mu.Unlock()
		return
	case !changed && time.Since(q.at) < queueAtMost:
		q.mu.Unlock()
		return
	}
	q.busy = true
	q.mu.Unlock()
	go q.read()
}

// keepReading reads the queue every queueEvery while the tab is in sight.
func (q *approvalQueue) keepReading() {
	for {
		time.Sleep(queueEvery)
		if app.Window().Get("document").Get("visibilityState").String() == "visible" {
			q.refresh(false)
		}
	}
}

func (q *approvalQueue) read() {
	a, err := readQueue(context.Background())
	q.mu.Lock()
	q.busy, q.at = false, time.Now()
	if err != nil {
		q.problem = t("The bulks awaiting approval could not be read:") + " " + errorText(err)
	} else {
		q.answer, q.problem = a, ""
	}
	again := q.again
	q.again = false
	q.mu.Unlock()
	q.watches.tell(struct{}{})
	if again {
		q.refresh(true)
	}
}

// readQueue asks the server for the newest bulks awaiting a second
// operator.
func readQueue(ctx context.Context) (*queueAnswer, error) {
	res, err := fetchText(ctx, href("/four-eyes/bulks")+fmt.Sprintf("?state=awaiting&limit=%d", queueLimit))
	if err != nil {
		return nil, err
	}
	var a queueAnswer
	jerr := json.Unmarshal([]byte(res.body), &a)
	switch {
	case res.status != http.StatusOK && a.Message != "":
		return nil, fmt.Errorf("the server answered %d: %s", res.status, a.Message)
	case res.status != http.StatusOK:
		return nil, fmt.Errorf("the server answered %d %s", res.status, http.StatusText(res.status))
	case jerr != nil:
		return nil, fmt.Errorf("reading the server's answer: %w", jerr)
	}
	return &a, nil
}
