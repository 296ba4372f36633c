package bulkreview_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/schema"
)

// elementDiffs writes the differences about elements as "what@index".
func elementDiffs(ds []bulkreview.Difference) []string {
	var out []string
	for _, d := range ds {
		if d.Index != nil {
			out = append(out, fmt.Sprintf("%s@%d", d.What, *d.Index))
		}
	}
	return out
}

// declaring returns a receipt of one chunk, bulk id, declaring elements.
func declaring(t *testing.T, id string, elements []any) *bulkreview.Receipt {
	t.Helper()
	body, err := schema.CanonicalArray(elements, nil)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := bulkreview.ReceiptOfBody(transfers, false, body, id, bulkreview.Declared{})
	if err != nil {
		t.Fatal(err)
	}
	return throughJSON(t, rc)
}

func TestAChangedElementIsNamedByItsIndex(t *testing.T) {
	api := fakeapi.New()
	s := submit(t, api, api, fixture.SampleBody(10), 0)
	rc := receiptOf(t, s)
	if got := len(rc.Chunks[0].Fingerprints); got != 10 {
		t.Fatalf("the receipt lists %d fingerprints for 10 elements", got)
	}
	id := s.entries[0].BulkID
	if d := bulkreview.Compare(rc, fetch(t, s.client, id)); len(d) != 0 {
		t.Fatalf("the unchanged bulk differs: %v", d)
	}
	// The API's record of element 0 says another amount.
	d := bulkreview.Compare(rc, fetch(t, fakeapi.Client(tamper(api, id, "100", "10000")), id))
	var what []string
	for _, x := range d {
		what = append(what, x.What)
	}
	if strings.Join(what, " ") != "body element total source" || *d[1].Index != 0 || !strings.Contains(d[1].Text, "element 0 is not what the receipt declares") {
		t.Fatalf("differences %v", d)
	}
	if d[0].Index != nil || d[2].Index != nil {
		t.Errorf("a difference of the whole bulk names an element: %v", d)
	}
	out, _ := json.Marshal(d[1])
	if !strings.Contains(string(out), `"index":0`) {
		t.Errorf("JSON %s", out)
	}
}

func TestElementsAddedLeftOutOrMovedAreNamedAlone(t *testing.T) {
	api := fakeapi.New()
	s := submit(t, api, api, fixture.SampleBody(12), 0)
	id := s.entries[0].BulkID
	rv := fetch(t, s.client, id)
	el := s.elements
	other := decodedElements(t, fixture.SampleBody(13))[12]
	for _, tc := range []struct {
		name     string
		declared []any
		want     []string
	}{
		// The receipt lacks element 4: the bulk's 4 is an extra, and the
		// 7 after it are not named.
		{"one left out of the receipt", slices.Delete(slices.Clone(el), 4, 5), []string{"extra@4"}},
		{"one more in the receipt", append(slices.Clone(el), other), []string{"missing@12"}},
		{"one replaced", slices.Replace(slices.Clone(el), 7, 8, other), []string{"element@7"}},
		{"two swapped", swap(el, 2, 9), []string{"order@2", "order@9"}},
		{"one added and one removed", append(slices.Delete(slices.Clone(el), 0, 1), other), []string{"extra@0", "missing@11"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := bulkreview.Compare(declaring(t, id, tc.declared), rv)
			if got := elementDiffs(d); !slices.Equal(got, tc.want) {
				t.Errorf("element differences %v, want %v\n%v", got, tc.want, d)
			}
		})
	}
}

func TestAReceiptWithoutFingerprintsComparesByTotalsAndHash(t *testing.T) {
	api := fakeapi.New()
	s := submit(t, api, api, fixture.SampleBody(10), 0)
	data, err := receiptOf(t, s).MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	// A receipt as written before fingerprints: the same JSON without them.
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, c := range doc["parts"].([]any) {
		delete(c.(map[string]any), "fingerprints")
	}
	old, _ := json.Marshal(doc)
	rc, err := bulkreview.ReadReceipt(old)
	if err != nil || rc.Chunks[0].Fingerprints != nil {
		t.Fatalf("an older receipt: %v %+v", err, rc)
	}
	id := s.entries[0].BulkID
	if d := bulkreview.Compare(rc, fetch(t, s.client, id)); len(d) != 0 {
		t.Errorf("the unchanged bulk differs: %v", d)
	}
	d := bulkreview.Compare(rc, fetch(t, fakeapi.Client(tamper(api, id, "100", "10000")), id))
	if len(d) != 3 || d[0].What != bulkreview.DiffBody || len(elementDiffs(d)) != 0 {
		t.Errorf("differences %v", d)
	}
}

func TestReadReceiptRefusesFingerprintsThatNameNoElement(t *testing.T) {
	api := fakeapi.New()
	s := submit(t, api, api, fixture.SampleBody(3), 0)
	good, _ := receiptOf(t, s).MarshalIndent()
	fp := receiptOf(t, s).Chunks[0].Fingerprints[1]
	for name, changed := range map[string]string{
		"one too few": strings.Replace(string(good), `"`+fp+`",`, "", 1),
		"not hex":     strings.Replace(string(good), fp, "zz"+fp[2:], 1),
		"too short":   strings.Replace(string(good), fp, fp[2:], 1),
		"upper case":  strings.Replace(string(good), fp, strings.ToUpper(fp), 1),
	} {
		if changed == string(good) {
			t.Fatalf("%s: the edit changed nothing", name)
		}
		if _, err := bulkreview.ReadReceipt([]byte(changed)); err == nil || !strings.Contains(err.Error(), "fingerprint") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func swap(el []any, i, j int) []any {
	out := slices.Clone(el)
	out[i], out[j] = out[j], out[i]
	return out
}

func decodedElements(t *testing.T, body []byte) []any {
	t.Helper()
	doc, _, err := schema.DecodeJSON(body)
	if err != nil {
		t.Fatal(err)
	}
	return doc.([]any)
}
