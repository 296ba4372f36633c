package sandbox

import (
	"strconv"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/schema"
)

// A bulk is one bulk process. Its fields are guarded by Sandbox.mu.
type bulk struct {
	id              string
	owner           bulkapi.Identity
	kind            *schema.Kind
	operation       string // "POST /transfers"
	status          bulkapi.Status
	mode            bulkapi.Mode
	webhookInterval int
	ops             []operation
	next            int // index of the next operation to execute
	started         int64
	finished        int64
	// halt stops the goroutine executing the bulk; nil when none runs.
	halt chan struct{}
}

// An operation is one element of a bulk.
type operation struct {
	id       string
	method   string
	path     string
	status   bulkapi.OperationStatus
	payload  string
	response string
	fails    bool // decided at submission, so that it is reproducible
}

// A refRecord is what an idempotency-ref was first used for.
type refRecord struct {
	digest   [32]byte
	endpoint string
	receipt  bulkapi.Receipt
	at       time.Time
}

// refKey scopes refs to an identity: two identities may pick the same ref.
type refKey struct {
	owner bulkapi.Identity
	ref   string
}

type store struct {
	bulks  map[string]*bulk
	order  []*bulk // oldest first
	refs   map[refKey]refRecord
	nextID int64
}

// newStore numbers bulks from the start time, so that ids stay unique when
// the sandbox restarts and a browser still remembers old ones.
func newStore(now time.Time) *store {
	return &store{
		bulks:  make(map[string]*bulk),
		refs:   make(map[refKey]refRecord),
		nextID: now.UnixMilli() * 1000,
	}
}

func (st *store) add(b *bulk) {
	st.nextID++
	b.id = strconv.FormatInt(st.nextID, 10)
	for i := range b.ops {
		b.ops[i].id = b.id + "-" + strconv.Itoa(i)
	}
	st.bulks[b.id] = b
	st.order = append(st.order, b)
}

// find returns the owner's bulk with that id; another identity's bulk is
// as absent as one that never existed.
func (st *store) find(owner bulkapi.Identity, id string) *bulk {
	b := st.bulks[id]
	if b == nil || b.owner != owner {
		return nil
	}
	return b
}

// forgetRefs drops refs older than ttl.
func (st *store) forgetRefs(now time.Time, ttl time.Duration) {
	for k, r := range st.refs {
		if now.Sub(r.at) > ttl {
			delete(st.refs, k)
		}
	}
}

// counts returns the operations per state, in the order of the contract,
// leaving out states with none.
func (b *bulk) counts() []bulkapi.StatusCount {
	n := make(map[bulkapi.OperationStatus]int)
	for _, op := range b.ops {
		n[op.status]++
	}
	var out []bulkapi.StatusCount
	for _, s := range bulkapi.OperationStatuses() {
		if n[s] > 0 {
			out = append(out, bulkapi.StatusCount{Status: s, Count: n[s]})
		}
	}
	return out
}

func (b *bulk) view(details bool) bulkapi.BulkProcess {
	v := bulkapi.BulkProcess{
		BulkID:              b.id,
		Status:              b.status,
		SubmittedItemsCount: len(b.ops),
		ExecutionStart:      b.started,
		ExecutionFinish:     b.finished,
		Operation:           b.operation,
		Mode:                b.mode,
	}
	if details {
		v.OperationStatusCounts = b.counts()
	}
	return v
}

func (b *bulk) opView(i int) bulkapi.Operation {
	op := b.ops[i]
	return bulkapi.Operation{
		OperationID:     op.id,
		Sequence:        i,
		Method:          op.method,
		Path:            op.path,
		Status:          op.status,
		RequestPayload:  op.payload,
		ResponsePayload: op.response,
	}
}
