package ui

import (
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// What the console tells the host page that embeds it, as the operator
// goes: each event's fields are those of
// cmd/bulkdesk/EMBEDDING.md. Amounts travel as the
// console writes them and as exact minor units, never as floats.

// maxToldProblems bounds the problems a validated event lists; the counts
// cover them all.
const maxToldProblems = 100

// hostTotals are totals as the host hears them.
func hostTotals(totals []wire.Total) []map[string]any {
	out := make([]map[string]any, 0, len(totals))
	for _, tot := range totals {
		out = append(out, map[string]any{
			"currency": tot.Currency, "count": tot.Count, "amount": tot.Amount, "minor": tot.Minor, "invalid": tot.Invalid,
		})
	}
	return out
}

// tellValidated tells the host of a file's review, each time it is shown
// or changes.
func tellValidated(s *wire.Summary) {
	if s == nil || !isEmbedded() {
		return
	}
	first := make([]map[string]any, 0, min(len(s.Problems), maxToldProblems))
	for _, pr := range s.Problems[:min(len(s.Problems), maxToldProblems)] {
		first = append(first, map[string]any{
			"severity": pr.Severity, "element": pr.Element, "sheet": pr.Sheet, "row": pr.Row,
			"column": pr.Column, "field": pr.Field, "code": pr.Code, "message": pr.Message,
		})
	}
	postToHost("validated", map[string]any{
		"fileName": s.FileName, "kind": s.Kind, "backOffice": s.BackOffice,
		"elements": s.Elements, "valid": s.Valid, "invalid": s.Invalid, "duplicates": s.Duplicates,
		"totals":   hostTotals(s.Totals),
		"reading":  statementTexts(s.Reading),
		"problems": map[string]any{"errors": s.Errors, "warnings": s.Warnings, "first": first},
	}, nil)
}

// tellSubmission tells the host of a submission sent, with the maker's
// receipt when the console offers one for it.
func tellSubmission(ctx app.Context, conf wire.Confirmation, sub wire.SubmissionInfo) {
	if !isEmbedded() {
		return
	}
	if !receiptOffered(sub) {
		tellSubmitted(conf, sub, nil)
		return
	}
	writeReceipt(ctx, sub, statementTexts(conf.Reading), wire.ReceiptJSON, func(_ wire.File, data app.Value, err error) {
		if err != nil {
			app.Log("writing the receipt for the host page:", err)
			tellSubmitted(conf, sub, nil)
			return
		}
		win := app.Window()
		text := win.Get("TextDecoder").New().Call("decode", data)
		tellSubmitted(conf, sub, win.Get("JSON").Call("parse", text))
	})
}

// tellSubmitted posts the submitted event, with receipt (the parsed
// receipt) or null.
func tellSubmitted(conf wire.Confirmation, sub wire.SubmissionInfo, receipt app.Value) {
	bulks := make([]map[string]any, 0, len(sub.Chunks))
	for _, c := range sub.Chunks {
		if c.BulkID == "" {
			continue
		}
		bulks = append(bulks, map[string]any{"bulkId": c.BulkID, "elements": c.Elements, "first": c.First, "last": c.Last, "ref": c.Ref})
	}
	fields := map[string]any{
		"submission": sub.ID, "kind": sub.Kind, "backOffice": sub.BackOffice, "elements": conf.Sending,
		"bulks": bulks, "totals": hostTotals(conf.Totals), "receipt": nil,
	}
	postValue("submitted", fields, func(msg app.Value) {
		if receipt != nil {
			msg.Set("receipt", receipt)
		}
	})
}

// tellBulk tells the host what became of a bulk the page shows: executed
// or cancelled by the operator (action), or at its end after running.
func tellBulk(action string, before string, b *wire.BulkInfo) {
	if b == nil || !isEmbedded() {
		return
	}
	switch action {
	case wire.ActionExecute:
		tellOnce("executed", b.BulkID, map[string]any{"bulkId": b.BulkID})
	case wire.ActionCancel:
		tellOnce("cancelled", b.BulkID, map[string]any{"bulkId": b.BulkID})
	}
	if !b.Final || before == "" || before == b.Status {
		return
	}
	if b.Status == wire.BulkCancelled {
		tellOnce("cancelled", b.BulkID, map[string]any{"bulkId": b.BulkID})
		return
	}
	counts := map[string]int{}
	for state, n := range b.Counts {
		counts[state] = n
	}
	tellOnce("completed", b.BulkID, map[string]any{"bulkId": b.BulkID, "status": b.Status, "operations": b.Operations, "counts": counts})
}

// tellFailure tells the host an action failed, in the operator's words.
func tellFailure(code, message string) {
	if message == "" || !isEmbedded() {
		return
	}
	postToHost("error", map[string]any{"code": code, "message": message}, nil)
}

// hostResultWorkbook answers a host's request for a bulk's result
// workbook with the workbook as a Blob, or an error.
func hostResultWorkbook(ctx app.Context, requestID, bulkID string) {
	fail := func(msg string) {
		postToHost("error", map[string]any{"code": "workbook", "message": msg, "requestId": requestID}, nil)
	}
	e, _ := currentEmbedding()
	conn := currentConnection(ctx)
	if missing := conn.ready(loadConfig().API, e.BackOffice); missing != "" {
		fail(tf("The connection is not ready: %s", missing))
		return
	}
	if bulkID == "" {
		fail(t("The host page named no bulk."))
		return
	}
	req := wire.ResultWorkbook{Connection: conn.forWorker(e.BackOffice), BulkID: bulkID}
	runJob(ctx, wire.JobResultWorkbook, req, nil, func(f wire.ResultFile, data app.Value, err error) {
		switch {
		case err != nil:
			fail(errorText(err))
		case f.Failure != nil:
			fail(failureSummary(f.Failure))
		default:
			postToHost("result-workbook", map[string]any{"requestId": requestID, "bulkId": bulkID, "fileName": downloadName(f.Name)}, blobOf(data, f.Type))
		}
	})
}

// blobOf wraps bytes the worker produced (an ArrayBuffer) in a Blob of
// mediaType.
func blobOf(data app.Value, mediaType string) app.Value {
	win := app.Window()
	parts := win.Get("Array").New()
	if data != nil && data.Truthy() {
		parts.Call("push", data)
	}
	opts := win.Get("Object").New()
	opts.Set("type", mediaType)
	return win.Get("Blob").New(parts, opts)
}
