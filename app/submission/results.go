package submission

import (
	"strings"
	"unicode/utf8"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/schema"
)

var lookupKind = schema.Lookup

// A Result is the outcome of one element of the operator's request: a row
// of the result workbook.
type Result struct {
	// Element is the element's index in the operator's request.
	Element int
	// Sheet and Row locate the element in a spreadsheet or CSV file; they
	// are empty for a JSON body.
	Sheet string
	Row   int
	// Chunk and BulkID say which bulk it went into; Sequence is its
	// position there.
	Chunk       int
	BulkID      string
	Sequence    int
	OperationID string
	// Status is the operation's state; "" when the bulk did not list it.
	Status bulkapi.OperationStatus
	// Error explains a failed or cancelled operation; Response is what
	// the API answered an operation that did not fail, such as the
	// created transfer. One of them at most is set.
	Error    string
	Response string
}

// MapOperations maps a bulk's operations to the elements of the operator's
// request, by sequence. Sequences count from 0, as the sandbox does; an
// API that counts from 1 shows it with a sequence equal to the count, and
// is read that way. Operations that map to no element are returned apart.
func MapOperations(e Entry, ops []bulkapi.Operation) (results []Result, stray []bulkapi.Operation) {
	n := e.Elements.Len()
	base := 0
	for _, op := range ops {
		if op.Sequence == n {
			base = 1
		}
	}
	for _, op := range ops {
		el, ok := e.Elements.At(op.Sequence - base)
		if !ok {
			stray = append(stray, op)
			continue
		}
		r := Result{
			Element: el, Chunk: e.Chunk, BulkID: e.BulkID, Sequence: op.Sequence,
			OperationID: op.OperationID, Status: op.Status,
		}
		if op.Status == bulkapi.OpFailed || op.Status == bulkapi.OpCancelled {
			r.Error = op.Failure()
		} else {
			r.Response = responseOf(op)
		}
		r.Sheet, r.Row = e.Row(op.Sequence - base)
		results = append(results, r)
	}
	return results, stray
}

// maxResponse bounds a response kept for a result: a spreadsheet cell
// holds at most 32,767 characters.
const maxResponse = 32_000

// responseOf is the response payload of an operation that did not fail,
// as the API sent it.
func responseOf(op bulkapi.Operation) string {
	p := strings.TrimSpace(op.ResponsePayload)
	if len(p) > maxResponse {
		cut := maxResponse
		for cut > 0 && !utf8.RuneStart(p[cut]) {
			cut--
		}
		p = p[:cut] + "…"
	}
	return p
}
