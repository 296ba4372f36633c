package submission_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/schema"
)

// FuzzCanonicalBody checks that a plan's body is JSON that decodes to the
// same elements, whatever the file held, and does not depend on key order.
func FuzzCanonicalBody(f *testing.F) {
	for _, seed := range []string{
		`[{"requestBody":{"tag":"a\"b\\c\n\u0001é😀","amount":12.50,"x":[1,true,null,{"z":1,"a":2}]}}]`,
		`[{"b":1,"a":{"d":[],"c":{}}}]`,
		"[\"\xff\xfe bad utf-8\", \"\u2028\"]",
		`[1e400, -0, 0.000001]`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, _, err := schema.DecodeJSON(data)
		if err != nil {
			return
		}
		elements, ok := doc.([]any)
		if !ok || len(elements) == 0 {
			return
		}
		p, err := submission.NewPlan(transfers, elements, submission.PlanOptions{})
		if err != nil {
			t.Fatal(err)
		}
		body := p.Chunks[0].Body
		again, _, err := schema.DecodeJSON(body)
		if err != nil {
			t.Fatalf("the body %q is not JSON: %v", body, err)
		}
		// Decoding the canonical form and writing it again changes nothing.
		p2, err := submission.NewPlan(transfers, again.([]any), submission.PlanOptions{})
		if err != nil || !bytes.Equal(p2.Chunks[0].Body, body) {
			t.Fatalf("not canonical:\n%s\n%s", body, p2.Chunks[0].Body)
		}
		if !json.Valid(body) {
			t.Fatalf("encoding/json refuses %q", body)
		}
	})
}

func TestCanonicalBodyIsCompactSortedAndExact(t *testing.T) {
	doc, _, err := schema.DecodeJSON([]byte(`[ { "b" : 1.50 , "a" : "x\ty\u0000\"" , "c": [ null, false ] } ]`))
	if err != nil {
		t.Fatal(err)
	}
	p, err := submission.NewPlan(transfers, doc.([]any), submission.PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"a":"x\ty\u0000\"","b":1.50,"c":[null,false]}]`
	if got := string(p.Chunks[0].Body); got != want {
		t.Errorf("body %s, want %s", got, want)
	}
	if _, err := submission.NewPlan(transfers, []any{struct{}{}}, submission.PlanOptions{}); err == nil || !strings.Contains(err.Error(), "element 0") {
		t.Errorf("a value without JSON form: %v", err)
	}
}
