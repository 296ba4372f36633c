package approvals

import (
	"fmt"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/bulkreview"
)

// Awaiting returns a page of the rule's bulks awaiting a second
// operator, newest first: p.Scope is the rule's, and p.BeforeID and the
// records' bulk ids are the API's, without it.
func (r *Rule) Awaiting(p Page) ([]Record, error) {
	p.Scope = r.Scope
	if p.BeforeID != "" {
		p.BeforeID = r.key(p.BeforeID)
	}
	recs, err := r.Records.Awaiting(p)
	if err != nil {
		return nil, err
	}
	for i := range recs {
		recs[i].BulkID = r.bulkID(recs[i].BulkID)
	}
	return recs, nil
}

// Receipt returns the receipt kept with bulkID's record, held or
// written, and false when there is none.
func (r *Rule) Receipt(bulkID string) (*bulkreview.Receipt, bool, error) {
	key := r.key(bulkID)
	if rec, ok := r.held.get(key); ok {
		return rec.Receipt, rec.Receipt != nil, nil
	}
	rc, found, err := r.Records.Receipt(key)
	if err != nil {
		return nil, false, fmt.Errorf("four eyes: %w", err)
	}
	return rc, found, nil
}

// bulkID is the API's id of a bulk the records keep as key.
func (r *Rule) bulkID(key string) string {
	if r.Scope == "" {
		return key
	}
	return strings.TrimPrefix(key, r.Scope+"/")
}
