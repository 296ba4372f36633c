package ingest_test

import (
	"reflect"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/schema"
)

// A request body is read without being decoded: Open keeps the file's
// bytes and where each element is, and decodes an element when it is
// read, to the value the whole body decoded would hold; a change to an
// element stays, for every later reader.
func TestARequestBodyIsKeptAsItsBytes(t *testing.T) {
	data := fixture.Payroll.Body(1000)
	allocs := testing.AllocsPerRun(3, func() {
		if _, err := ingest.Open("pay.json", data, ingest.Options{}); err != nil {
			t.Fatal(err)
		}
	})
	// Decoded, 1,000 transfers are some 10,000 values and maps.
	if allocs > 100 {
		t.Errorf("opening 1,000 elements took %.0f allocations: the body was decoded", allocs)
	}
	f, err := ingest.Open("pay.json", data, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	els, ok := f.RequestElements()
	if !ok {
		t.Fatal("no request elements")
	}
	doc, _, _ := schema.DecodeJSON(data)
	want := doc.([]any)
	if els.Len() != len(want) {
		t.Fatalf("%d elements, %d decoded whole", els.Len(), len(want))
	}
	for _, i := range []int{0, 499, 999} {
		if !reflect.DeepEqual(els.At(i), want[i]) {
			t.Errorf("element %d reads %v, decoded whole %v", i, els.At(i), want[i])
		}
	}
	els.Own(7).(map[string]any)["requestBody"].(map[string]any)["tag"] = "changed"
	all, _, _ := f.Request()
	for name, v := range map[string]any{"At": els.At(7), "Request": all.([]any)[7]} {
		if got := v.(map[string]any)["requestBody"].(map[string]any)["tag"]; got != "changed" {
			t.Errorf("after a change, %s reads tag %v", name, got)
		}
	}
}
