package bulkreview_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
)

// A receipt is written with the word the screen uses for a bulk's share
// of a file: "parts", each with its "part".
func TestAReceiptNamesItsParts(t *testing.T) {
	api := fakeapi.New()
	rc := receiptOf(t, submit(t, api, api, fixture.SampleBody(5), 3))
	data, err := rc.MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	if rc.Version != bulkreview.ReceiptVersion || !bytes.Contains(data, []byte(`"parts": [`)) || !bytes.Contains(data, []byte(`"part": 2,`)) || bytes.Contains(data, []byte(`"chunk`)) {
		t.Errorf("version %d, written as\n%s", rc.Version, data)
	}
}

// A receipt written before (version 1, "chunks" of "chunk") still reads,
// through ReadReceipt as through the server's stores, which decode it
// with encoding/json, and still checks the bulks it names.
func TestAReceiptOfVersion1StillReads(t *testing.T) {
	data, err := os.ReadFile("testdata/receipt-v1.json")
	if err != nil {
		t.Fatal(err)
	}
	rc, err := bulkreview.ReadReceipt(data)
	if err != nil {
		t.Fatal(err)
	}
	var stored bulkreview.Receipt
	if err := json.Unmarshal(data, &stored); err != nil {
		t.Fatal(err)
	}
	for _, r := range []*bulkreview.Receipt{rc, &stored} {
		if len(r.Chunks) != 2 || r.Chunks[0].Chunk != 1 || r.Chunks[1].Chunk != 2 || r.Chunks[1].BulkID != "501" || r.Chunks[1].Elements != 2 || len(r.Chunks[1].Fingerprints) != 2 {
			t.Fatalf("parts %+v", r.Chunks)
		}
	}
	// Written again, it is a receipt of this version.
	again, err := rc.MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	if rc.Version != bulkreview.ReceiptVersion || bytes.Contains(again, []byte(`"chunk`)) {
		t.Errorf("version %d, written again as\n%s", rc.Version, again)
	}
	// The same file submitted again makes the same bulks, which match.
	api := fakeapi.New()
	s := submit(t, api, api, fixture.SampleBody(5), 3)
	for _, c := range rc.Chunks {
		if d := bulkreview.Compare(rc, fetch(t, s.client, c.BulkID)); len(d) != 0 {
			t.Errorf("bulk %s: differences %v", c.BulkID, d)
		}
	}
}
