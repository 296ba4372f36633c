package recordstest

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
)

// receipt is a receipt of n transfers of bulk id, drawn on sources
// sources, as the server computes it.
func receipt(id string, n, sources int, by string, at time.Time) *bulkreview.Receipt {
	eur := func(count, minor int) []bulkreview.Amount {
		return []bulkreview.Amount{{Currency: "EUR", Count: count, Minor: fmt.Sprint(minor), Amount: fmt.Sprintf("%d.%02d", minor/100, minor%100)}}
	}
	rc := &bulkreview.Receipt{Version: bulkreview.ReceiptVersion, File: "pay-" + id + ".xlsx", Kind: "transfers", API: bulkreview.Standard,
		SubmittedBy: by, SubmittedAt: at, Elements: n, Totals: eur(n, 150*n)}
	for i := range sources {
		count := n / sources
		rc.Sources = append(rc.Sources, bulkreview.SourceAmounts{Source: fmt.Sprintf("managed_accounts %09d", i), Count: count, Totals: eur(count, 150*count)})
	}
	rc.Chunks = []bulkreview.ReceiptChunk{{Chunk: 1, BulkID: id, Elements: n, SHA256: fmt.Sprintf("%064x", n), SentSHA256: fmt.Sprintf("%064x", n+1),
		Totals: rc.Totals, Sources: rc.Sources}}
	return rc
}

// withReceipt is the record of bulk id with rc, as the rule writes it.
func withReceipt(id, by string, at time.Time, rc *bulkreview.Receipt) approvals.Record {
	return approvals.Record{BulkID: id, SubmittedBy: by, SubmittedAt: at, API: "standard", Kind: rc.Kind, FileName: rc.File,
		Elements: rc.Elements, Totals: rc.Totals, Receipt: rc}
}

// runReceipts holds the records to the receipts they keep.
func runReceipts(t *testing.T, open func(t *testing.T) approvals.Records) {
	at := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	t.Run("a receipt is kept with its record and read back as written", func(t *testing.T) {
		s := open(t)
		rc := receipt("b-1", 3, 2, "alice", at)
		if stored, err := s.Put(withReceipt("b-1", "alice", at, rc)); err != nil || !stored {
			t.Fatalf("Put: %v, %v", stored, err)
		}
		got, found, err := s.Receipt("b-1")
		if err != nil || !found || !reflect.DeepEqual(got, rc) {
			t.Errorf("Receipt: %+v, %v, %v; want %+v", got, found, err, rc)
		}
		r, _, err := s.Get("b-1")
		if err != nil || r.Receipt != nil || r.Kind != "transfers" || r.FileName != "pay-b-1.xlsx" || r.Elements != 3 || !reflect.DeepEqual(r.Totals, rc.Totals) || r.State() != approvals.StateAwaiting {
			t.Errorf("the record of a bulk with a receipt: %+v, %v", r, err)
		}
		if _, err := s.Put(approvals.Record{BulkID: "b-2", SubmittedBy: "alice", SubmittedAt: at, API: "standard"}); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"b-2", "b-3"} {
			if rc, found, err := s.Receipt(id); err != nil || found || rc != nil {
				t.Errorf("%s: %+v, %v, %v; want no receipt", id, rc, found, err)
			}
		}
	})
	t.Run("a receipt of 10,000 elements drawn on as many sources", func(t *testing.T) {
		s := open(t)
		rc := receipt("big", 10_000, 10_000, "alice", at)
		if _, err := s.Put(withReceipt("big", "alice", at, rc)); err != nil {
			t.Fatal(err)
		}
		got, found, err := s.Receipt("big")
		if err != nil || !found || !reflect.DeepEqual(got, rc) {
			t.Errorf("read back: found %v, %v, equal %v", found, err, reflect.DeepEqual(got, rc))
		}
	})
	t.Run("the first submitter's receipt stays", func(t *testing.T) {
		s := open(t)
		first := receipt("b", 3, 1, "alice", at)
		if _, err := s.Put(withReceipt("b", "alice", at, first)); err != nil {
			t.Fatal(err)
		}
		if stored, err := s.Put(withReceipt("b", "bob", at.Add(time.Minute), receipt("b", 5, 2, "bob", at.Add(time.Minute)))); err != nil || stored {
			t.Fatalf("a second submitter was stored: %v, %v", stored, err)
		}
		got, _, err := s.Receipt("b")
		if err != nil || !reflect.DeepEqual(got, first) {
			t.Errorf("the receipt is now %+v, %v; want alice's", got, err)
		}
		if r, _, _ := s.Get("b"); r.SubmittedBy != "alice" || r.Elements != 3 {
			t.Errorf("the record is now %+v", r)
		}
	})
}
