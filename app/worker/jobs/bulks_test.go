package jobs_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/xuri/excelize/v2"
)

// submitFile loads body as pay.json and submits it in one chunk.
func (h *harness) submitFile(body []byte) wire.Submitted {
	h.t.Helper()
	return h.submitFileAnswering(body, "")
}

// submitFileAnswering submits a file, answering its repeats, if any, as
// repeats says (wire.RepeatsAgain, wire.RepeatsLeaveOut).
func (h *harness) submitFileAnswering(body []byte, repeats string) wire.Submitted {
	h.t.Helper()
	doc := h.load(body)
	c := conn
	p := h.prepare(wire.PrepareSubmission{Document: doc.Document, Connection: &c})
	if p.Plan == "" {
		h.t.Fatalf("nothing to send: %+v", p)
	}
	var got wire.Submitted
	h.result(h.send(wire.JobSubmit, wire.Submit{Plan: p.Plan, Connection: conn, Repeats: repeats}, nil), &got)
	if got.Failure != nil || len(got.Submission.Chunks) != 1 {
		h.t.Fatalf("submission %+v, failure %+v", got.Submission, got.Failure)
	}
	return got
}

func TestASubmissionAnsweredWithAnEarlierBulkSaysSo(t *testing.T) {
	api := fakeapi.New()
	here := newHarness(t, withAPI(api))
	first := here.submitFile(fixture.Transfers(30))
	id := first.Submission.Chunks[0].BulkID
	if len(first.Existing) != 0 {
		t.Fatalf("a new bulk was reported as existing: %+v", first.Existing)
	}

	// The same file from another browser (a journal of its own), sent
	// again on purpose past the repeat check: the API answers with the
	// bulk it made, and the submission says so.
	elsewhere := newHarness(t, withAPI(api))
	again := elsewhere.submitFileAnswering(fixture.Transfers(30), wire.RepeatsAgain)
	if api.Bulks() != 1 || again.Submission.Chunks[0].BulkID != id {
		t.Fatalf("the API holds %d bulks; the answer names %s", api.Bulks(), again.Submission.Chunks[0].BulkID)
	}
	if len(again.Existing) != 1 || again.Existing[0].Bulk.BulkID != id || again.Existing[0].Chunk != 0 ||
		again.Existing[0].Bulk.Status != "SUBMITTED" || again.Existing[0].Bulk.Operations != 30 {
		t.Errorf("existing %+v", again.Existing)
	}

	// Once executed, the bulk answered is told by its state.
	var r wire.BulkResult
	here.result(here.send(wire.JobBulkAction, wire.BulkAction{Connection: conn, BulkID: id, Action: "execute"}, nil), &r)
	third := newHarness(t, withAPI(api))
	late := third.submitFileAnswering(fixture.Transfers(30), wire.RepeatsAgain)
	if len(late.Existing) != 1 || late.Existing[0].Bulk.Status != "COMPLETED" || late.Existing[0].Bulk.Done != 30 {
		t.Errorf("existing after execution %+v", late.Existing)
	}
}

func TestBulksCarryTheJournalsFileTimeAndTotals(t *testing.T) {
	api := fakeapi.New()
	h := newHarness(t, withAPI(api))
	id := h.submitFile(fixture.Transfers(250)).Submission.Chunks[0].BulkID

	var l wire.BulkList
	h.result(h.send(wire.JobBulks, wire.ListBulks{Connection: conn}, nil), &l)
	if len(l.Bulks) != 1 {
		t.Fatalf("list %+v", l)
	}
	if b := l.Bulks[0]; b.Source != "pay.json" || b.Submission == "" || b.Submitted == 0 || b.Kind != "transfers" || b.Operations != 250 {
		t.Errorf("listed %+v", b)
	}
	// Another browser's journal does not know the bulk.
	other := newHarness(t, withAPI(api))
	var r wire.BulkResult
	other.result(other.send(wire.JobBulk, wire.GetBulk{Connection: conn, BulkID: id}, nil), &r)
	if b := r.Bulk; b == nil || b.Submission != "" || b.Submitted != 0 || b.Kind != "transfers" {
		t.Errorf("details elsewhere %+v", r.Bulk)
	}

	// The totals are the file's: amounts 100+i cents.
	want := 250*100 + 249*250/2
	var tot wire.BulkTotals
	progress := other.result(other.send(wire.JobBulkTotals, wire.GetBulkTotals{Connection: conn, BulkID: id}, nil), &tot)
	if tot.Failure != nil || !tot.MovesMoney || tot.Elements != 250 || tot.Kind != "transfers" || len(tot.Totals) != 1 ||
		tot.Totals[0].Currency != "EUR" || tot.Totals[0].Minor != strconv.Itoa(want) || tot.Totals[0].Count != 250 ||
		tot.Totals[0].Amount != fmt.Sprintf("%d.%02d", want/100, want%100) {
		t.Errorf("totals %+v, want EUR %d minor units", tot, want)
	}
	if api.OperationReads() != 3 || len(progress) == 0 {
		t.Errorf("%d pages of operations read, %d progress messages", api.OperationReads(), len(progress))
	}
	// A bulk's operations never change: the second answer is kept.
	var again wire.BulkTotals
	other.result(other.send(wire.JobBulkTotals, wire.GetBulkTotals{Connection: conn, BulkID: id}, nil), &again)
	if api.OperationReads() != 3 || len(again.Totals) != 1 || again.Totals[0].Minor != tot.Totals[0].Minor {
		t.Errorf("read again: %d pages, %+v", api.OperationReads(), again)
	}
}

func TestTheResultWorkbookGivesErrorsToFailuresOnly(t *testing.T) {
	api := fakeapi.New()
	h := newHarness(t, withAPI(api))
	body := bytes.Replace(fixture.Transfers(3), []byte(`"id":"200000001"}`), []byte(`"id":"200000001"},"description":"`+fixture.FailMarker+`"`), 1)
	id := h.submitFile(body).Submission.Chunks[0].BulkID
	var r wire.BulkResult
	h.result(h.send(wire.JobBulkAction, wire.BulkAction{Connection: conn, BulkID: id, Action: "execute"}, nil), &r)
	if r.Bulk == nil || r.Bulk.Status != "PARTIALLY_COMPLETED" {
		t.Fatalf("executed: %+v", r)
	}
	var f wire.ResultFile
	_, m := h.wait(h.send(wire.JobResultWorkbook, wire.ResultWorkbook{Connection: conn, BulkID: id}, nil))
	if err := json.Unmarshal(m.Body, &f); err != nil || f.Failure != nil || f.Failed != 1 {
		t.Fatalf("result %s", m.Body)
	}
	x, err := excelize.OpenReader(bytes.NewReader(m.Data))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	rows, _ := x.GetRows("Results")
	want := [][]string{
		{"File", "Element", "Bulk", "Sequence", "Operation status", "Paid to", "Amount", "Currency", "Reference", "From", "Error", "Response", "Operation id"},
		{"pay.json", "1", id, "1", "FAILED", "managed_cards 200000001", "1.01", "EUR", fixture.FailMarker, "managed_accounts 100000001", "DECLINED: no", "", "op-" + id + "-1"},
		{"pay.json", "0", id, "0", "COMPLETED", "managed_cards 200000000", "1.00", "EUR", "", "managed_accounts 100000000", "", `{"id":"t9000"}`, "op-" + id + "-0"},
		{"pay.json", "2", id, "2", "COMPLETED", "managed_cards 200000002", "1.02", "EUR", "", "managed_accounts 100000002", "", `{"id":"t9002"}`, "op-" + id + "-2"},
	}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("results sheet\n %q\nwant\n %q", rows, want)
	}
}

// The failed rows of a result workbook have the columns of the contract in
// use, which the second worker, writing it, learns from the first.
func TestTheResultWorkbookHasTheColumnsOfTheContractInUse(t *testing.T) {
	api := fakeapi.New()
	h := newHarness(t, withAPI(api))
	h.contract(wire.SetContract{Source: newerContract(t)})
	body := bytes.ReplaceAll(fixture.Transfers(2), []byte(`"requestBody":{`), []byte(`"requestBody":{"endToEndId":"E2E-7",`))
	body = bytes.Replace(body, []byte(`"id":"200000001"}`), []byte(`"id":"200000001"},"description":"`+fixture.FailMarker+`"`), 1)
	sub := h.submitFile(body)
	if len(sub.Submission.Chunks) == 0 {
		t.Fatalf("not submitted: %+v", sub)
	}
	id := sub.Submission.Chunks[0].BulkID
	var r wire.BulkResult
	h.result(h.send(wire.JobBulkAction, wire.BulkAction{Connection: conn, BulkID: id, Action: "execute"}, nil), &r)
	_, m := h.wait(h.send(wire.JobResultWorkbook, wire.ResultWorkbook{Connection: conn, BulkID: id}, nil))
	if m.Type != wire.TypeResult {
		t.Fatalf("result workbook: %s %s", m.Type, m.Body)
	}
	x, err := excelize.OpenReader(bytes.NewReader(m.Data))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	var found []string
	for _, sheet := range x.GetSheetList() {
		rows, _ := x.GetRows(sheet)
		for _, row := range rows {
			for _, cell := range row {
				if strings.Contains(cell, "endToEndId") || cell == "E2E-7" {
					found = append(found, sheet+": "+cell)
				}
			}
		}
	}
	if len(found) < 2 {
		t.Errorf("the failed row lacks the newer contract's field and its value: found %q", found)
	}
}
