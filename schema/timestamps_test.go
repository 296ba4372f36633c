package schema_test

import (
	"testing"

	"github.com/bulkdesk/bulkdesk/schema"
)

// The fields that take epoch milliseconds are the overlay's, whatever
// the contract calls their type (digits as text, or an int64), and no
// others: a reader takes dates for exactly these.
func TestTimestampFieldsAreMarked(t *testing.T) {
	want := map[string][]string{
		"transfers":               {"scheduledTimestamp"},
		"sends":                   {"scheduledTimestamp"},
		"outgoing_wire_transfers": {"scheduledTimestamp"},
		"card_spend_rules":        {"spendLimit[].startTimestamp"},
	}
	for _, k := range schema.Kinds() {
		var got []string
		for _, f := range schema.Default().Fields(k) {
			if f.Timestamp {
				got = append(got, f.Path)
			}
		}
		if len(got) != len(want[k.ID]) || len(got) > 0 && got[0] != want[k.ID][0] {
			t.Errorf("%s: timestamp fields %v, want %v", k.ID, got, want[k.ID])
		}
	}
}

// A contract loaded at run time marks its own timestamp fields: a name
// ending in Timestamp whose description speaks of epoch milliseconds; a
// Timestamp field described otherwise, or milliseconds under another
// name, is not one.
func TestAContractsOwnTimestampFieldsAreMarked(t *testing.T) {
	src := &schema.Source{Name: "newer.json", Schemas: map[string][]byte{"transfers": []byte(`{
		"type": "object",
		"properties": {"requestBody": {"type": "object", "properties": {
			"profileId": {"type": "string"},
			"expiryTimestamp": {"type": "string", "pattern": "^[0-9]+$", "description": "When the transfer lapses, in milliseconds since the Unix epoch."},
			"settledTimestamp": {"type": "integer", "description": "When it settled: Epoch time in milliseconds."},
			"labelTimestamp": {"type": "string", "description": "A label of the moment, free text."},
			"delayMillis": {"type": "integer", "description": "A delay in milliseconds since 1970."}
		}}}}`)}}
	v, err := schema.NewValidatorFor(src, schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	k, _ := schema.Lookup("transfers")
	got := map[string]bool{}
	for _, f := range v.Fields(k) {
		got[f.Path] = f.Timestamp
	}
	want := map[string]bool{"profileId": false, "expiryTimestamp": true, "settledTimestamp": true, "labelTimestamp": false, "delayMillis": false}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("%s: Timestamp %v, want %v", p, got[p], w)
		}
	}
}
