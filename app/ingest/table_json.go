package ingest

import "encoding/json"

// tableFields is Table without its methods, so that encoding it does not
// call MarshalJSON again.
type tableFields Table

// tableJSON is a Table's JSON form: its fields and the keys that name a
// JSON table's columns, which the error workbook written from it needs.
type tableJSON struct {
	*tableFields
	Keys []string `json:"keys,omitempty"`
}

// MarshalJSON writes the table with the keys of its columns, so that it
// crosses from one worker to the other whole.
func (t *Table) MarshalJSON() ([]byte, error) {
	return json.Marshal(tableJSON{tableFields: (*tableFields)(t), Keys: t.keys})
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (t *Table) UnmarshalJSON(b []byte) error {
	v := tableJSON{tableFields: (*tableFields)(t)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	t.keys = v.Keys
	return nil
}
