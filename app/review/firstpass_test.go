package review_test

import (
	"reflect"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/review"
)

// passSeen is what a first pass saw of each element: its index, values
// at some paths, and the element decoded.
type passSeen struct {
	index  int
	values []any
	value  any
}

// passPaths are the paths the tests read in a first pass.
var passPaths = [][]string{
	{"requestBody", "destinationAmount", "amount"},
	{"requestBody", "source", "id"},
	{"requestBody", "profileId"},
	{"requestBody", "missing"},
}

// recordPass returns a first pass that records what it sees into seen;
// it decodes only the elements whose index decode says.
func recordPass(seen *[]passSeen, decode func(i int) bool) review.FirstPass {
	return func(e *review.PassElement) {
		s := passSeen{index: e.Index()}
		for _, p := range passPaths {
			s.values = append(s.values, e.ValueAt(p))
		}
		if decode(e.Index()) {
			// A table's maps are reused: keep a copy.
			s.value = roundTrip(e.Value())
		}
		*seen = append(*seen, s)
	}
}

// roundTrip copies a decoded value deeply.
func roundTrip(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = roundTrip(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = roundTrip(x)
		}
		return out
	}
	return v
}

// checkPass holds what a first pass saw to what the document reads of
// each element afterwards: every element once, in order.
func checkPass(t *testing.T, d *review.Document, seen []passSeen, decode func(i int) bool) {
	t.Helper()
	if len(seen) != d.Len() {
		t.Fatalf("the pass saw %d elements of %d", len(seen), d.Len())
	}
	for i, s := range seen {
		if s.index != i {
			t.Fatalf("element %d seen as %d", i, s.index)
		}
		for k, p := range passPaths {
			if want := d.ValueAt(i, p); !reflect.DeepEqual(s.values[k], want) {
				t.Errorf("element %d at %v: the pass read %#v, the document %#v", i, p, s.values[k], want)
			}
		}
		if decode(i) && !reflect.DeepEqual(s.value, d.Element(i)) {
			t.Errorf("element %d: the pass decoded %v, the document %v", i, s.value, d.Element(i))
		}
	}
}

func TestAFirstPassSeesEachRowOfATableAsTheDocumentReadsIt(t *testing.T) {
	var seen []passSeen
	all := func(int) bool { return true }
	d := openTable(t, "transfers", transfersCSV, recordPass(&seen, all))
	checkPass(t, d, seen, all)
}

func TestAFirstPassSeesEachElementOfABodyKeptAsItsBytes(t *testing.T) {
	v := fixture.Validator()
	k := fixture.Kind("transfers")
	body := fixture.Payroll.Body(40)
	els := openRequestElements(t, body)
	body2, _ := els.Body()
	report := v.CheckBody(k, body2)
	var seen []passSeen
	// Every third element is decoded in the pass, the others read flat.
	third := func(i int) bool { return i%3 == 0 }
	d := review.FromRequestElements(k, false, "b.json", els, report, v, recordPass(&seen, third))
	checkPass(t, d, seen, third)
	if seen[0].values[0] == nil || seen[0].values[2] == nil {
		t.Errorf("the pass read no amount or profile: %v", seen[0].values)
	}
}
