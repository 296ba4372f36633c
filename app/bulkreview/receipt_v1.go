package bulkreview

import "encoding/json"

// receiptV1 is the layout a receipt had before version 2: its bulks were
// "chunks", each with its "chunk".
const receiptV1 = 1

// UnmarshalJSON reads a receipt of this version or of version 1, whose
// bulks are under "chunks": what a maker kept, or a server stored, before
// the layout took the screen's word stays readable. A receipt read from
// version 1 becomes one of this version, and is written as such.
func (r *Receipt) UnmarshalJSON(data []byte) error {
	type plain Receipt // without this method
	var v struct {
		plain
		OldChunks []ReceiptChunk `json:"chunks"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*r = Receipt(v.plain)
	if r.Version == receiptV1 {
		r.Version, r.Chunks = ReceiptVersion, v.OldChunks
	}
	return nil
}

// UnmarshalJSON reads a bulk of a receipt whose place is its "part", or
// its "chunk" in a receipt of version 1.
func (c *ReceiptChunk) UnmarshalJSON(data []byte) error {
	type plain ReceiptChunk // without this method
	var v struct {
		plain
		OldChunk *int `json:"chunk"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*c = ReceiptChunk(v.plain)
	if v.OldChunk != nil && c.Chunk == 0 {
		c.Chunk = *v.OldChunk
	}
	return nil
}
