package ingest_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/ingest"
)

// A table crosses from one worker to the other as JSON whole: a JSON
// table keeps the keys that name its columns.
func TestATableSurvivesJSON(t *testing.T) {
	f, err := ingest.Open("rows.json", []byte(`[{"b":"1","a":"x"},{"a":"y","c":true}]`), ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tab, err := f.Table("", nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(tab)
	if err != nil {
		t.Fatal(err)
	}
	var back ingest.Table
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*tab, back) {
		t.Errorf("read back:\n%+v\nwant\n%+v", back, *tab)
	}
	if got := back.ColumnName(2); got != "c" {
		t.Errorf("column 2 is named %q, want its key c", got)
	}
}
