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

// The values the plausibility checks read are kept in the walk over a
// body's elements, so that the checks read no element again: a kept
// value is read without an allocation, and an element changed after the
// walk answers with its change.
func TestAWalkKeepsWhatThePlausibilityChecksRead(t *testing.T) {
	f, err := ingest.Open("pay.json", fixture.Payroll.Body(50), ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	els, _ := f.RequestElements()
	k := fixture.Kind("transfers")
	fresh, _ := ingest.Open("pay.json", fixture.Payroll.Body(50), ingest.Options{})
	want, _ := fresh.RequestElements()
	els.KeepPlausibility(k, fixture.Validator().Fields(k))
	walked := 0
	els.Walk(func(int, any) { walked++ }, func(int, schema.Flat) { walked++ })
	if walked != 50 {
		t.Fatalf("the walk read %d elements, want 50", walked)
	}
	amount := []string{"requestBody", "destinationAmount", "amount"}
	for _, i := range []int{0, 17, 49} {
		if got := els.ValueAt(i, amount); got == nil || !reflect.DeepEqual(got, want.ValueAt(i, amount)) {
			t.Errorf("element %d's amount kept %#v, read %#v", i, got, want.ValueAt(i, amount))
		}
	}
	if allocs := testing.AllocsPerRun(10, func() { els.ValueAt(17, amount) }); allocs != 0 {
		t.Errorf("reading a kept amount took %.0f allocations: the element was read again", allocs)
	}
	els.Own(17).(map[string]any)["requestBody"].(map[string]any)["destinationAmount"] = map[string]any{"currency": "EUR", "amount": "5"}
	if got := els.ValueAt(17, amount); got != "5" {
		t.Errorf("a changed element's amount reads %#v, want its change", got)
	}
	els.Forget()
	if got := els.ValueAt(0, amount); !reflect.DeepEqual(got, want.ValueAt(0, amount)) {
		t.Errorf("after Forget element 0's amount reads %#v, want %#v", got, want.ValueAt(0, amount))
	}
}
