package bulkreview

import (
	"errors"
	"fmt"
	"time"

	"github.com/bulkdesk/bulkdesk/schema"
)

// ReceiptOfBody makes the receipt of one bulk from the request body that
// submitted it, as a server passing the body on to the API sees it: body
// is the JSON array of elements exactly as sent, bulkID the bulk the API
// made of it. Its one chunk is what NewReceipt writes of the chunk that
// sent the same body (the same hashes, count and totals), so that a
// review compares with it as with the maker's own receipt. d.SubmittedAt
// zero means now.
func ReceiptOfBody(k *schema.Kind, backOffice bool, body []byte, bulkID string, d Declared) (*Receipt, error) {
	doc, _, err := schema.DecodeJSON(body)
	if err != nil {
		return nil, fmt.Errorf("reading the request body: %w", err)
	}
	elements, ok := doc.([]any)
	if !ok {
		return nil, errors.New("the request body is not an array of elements")
	}
	if n := len(elements); n == 0 || n > schema.MaxElements {
		return nil, fmt.Errorf("the request body holds %d elements: a bulk holds 1 to %d", n, schema.MaxElements)
	}
	c, err := chunkOf(k, 1, bulkID, elements, body)
	if err != nil {
		return nil, err
	}
	r := &Receipt{Version: ReceiptVersion, File: d.File, Kind: k.ID, API: APIName(backOffice), Reading: d.Reading,
		SubmittedBy: d.SubmittedBy, SubmittedAt: d.SubmittedAt.UTC(), Elements: c.Elements,
		Totals: c.Totals, Sources: c.Sources, Chunks: []ReceiptChunk{c}}
	if d.SubmittedAt.IsZero() {
		r.SubmittedAt = time.Now().UTC()
	}
	return r, nil
}

// chunkOf is the receipt's chunk number n, bulk bulkID, that sent
// elements as body: the hash of their record form (RecordForm), the hash
// of body as sent, their totals and their fingerprints.
func chunkOf(k *schema.Kind, n int, bulkID string, elements []any, body []byte) (ReceiptChunk, error) {
	record, err := RecordBody(k, elements)
	if err != nil {
		return ReceiptChunk{}, fmt.Errorf("part %d (bulk %s): %w", n, bulkID, err)
	}
	fps, err := Fingerprints(k, elements)
	if err != nil {
		return ReceiptChunk{}, fmt.Errorf("part %d (bulk %s): %w", n, bulkID, err)
	}
	t := TotalsOf(k, elements)
	return ReceiptChunk{Chunk: n, BulkID: bulkID, Elements: len(elements), SHA256: SHA256(record), SentSHA256: SHA256(body),
		Totals: AmountsOf(t.Currencies), Sources: SourcesOf(t.Sources), Fingerprints: HexFingerprints(fps)}, nil
}
