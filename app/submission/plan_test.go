package submission_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/schema"
)

var transfers, _ = schema.Lookup("transfers")

// transfer returns element i of a made-up request, decoded as the schema
// package decodes files.
func transfer(i int) any {
	doc := fmt.Sprintf(`{"requestBody":{"profileId":"110321","source":{"type":"managed_accounts","id":"%d"},"destination":{"type":"managed_cards","id":"2%d"},"destinationAmount":{"currency":"EUR","amount":%d}}}`, 100+i, i, 1000+i)
	v, _, err := schema.DecodeJSON([]byte(doc))
	if err != nil {
		panic(err)
	}
	return v
}

func request(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = transfer(i)
	}
	return out
}

func mustPlan(t testing.TB, elements []any, opts submission.PlanOptions) *submission.Plan {
	t.Helper()
	p, err := submission.NewPlan(transfers, elements, opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPlanSplitsIntoChunksOfAtMostTenThousand(t *testing.T) {
	elements := request(25_001)
	p := mustPlan(t, elements, submission.PlanOptions{})
	var sizes []int
	for _, c := range p.Chunks {
		sizes = append(sizes, c.Count())
		var decoded []any
		if err := json.Unmarshal(c.Body, &decoded); err != nil || len(decoded) != c.Count() {
			t.Fatalf("chunk %d body: %d elements, %v", c.Index, len(decoded), err)
		}
	}
	if !slices.Equal(sizes, []int{10_000, 10_000, 5_001}) || p.Elements != 25_001 {
		t.Errorf("chunk sizes %v", sizes)
	}
	if first, _ := p.Chunks[1].Elements.At(0); first != 10_000 {
		t.Errorf("chunk 2 starts at element %d", first)
	}
	if p.Endpoint.Path != "/bulks/transfers" {
		t.Errorf("endpoint %v", p.Endpoint)
	}
	small := mustPlan(t, request(10), submission.PlanOptions{ChunkSize: 4})
	if len(small.Chunks) != 3 || small.Chunks[2].Count() != 2 {
		t.Errorf("chunk size 4: %d chunks", len(small.Chunks))
	}
	for _, bad := range []submission.PlanOptions{{ChunkSize: 10_001}, {ChunkSize: -1}, {Only: []int{3, 2}}, {Only: []int{10}}, {Only: []int{}}} {
		if _, err := submission.NewPlan(transfers, request(10), bad); err == nil {
			t.Errorf("options %+v accepted", bad)
		}
	}
	if _, err := submission.NewPlan(transfers, nil, submission.PlanOptions{}); err == nil {
		t.Error("an empty request was planned")
	}
}

func TestRefsFollowContentKindAndEndpoint(t *testing.T) {
	elements := request(30)
	base := mustPlan(t, elements, submission.PlanOptions{ChunkSize: 10})
	again := mustPlan(t, request(30), submission.PlanOptions{ChunkSize: 10})
	for i := range base.Chunks {
		if base.Chunks[i].Ref != again.Chunks[i].Ref || base.Chunks[i].Digest != again.Chunks[i].Digest {
			t.Fatalf("chunk %d: the same content got another ref", i)
		}
	}
	if base.ID != again.ID {
		t.Error("the same content got another plan id")
	}
	refs := map[string]bool{}
	for _, c := range base.Chunks {
		if refs[c.Ref] || !strings.HasPrefix(c.Ref, "bd-") || len(c.Ref) != 35 {
			t.Errorf("ref %q repeated or malformed", c.Ref)
		}
		refs[c.Ref] = true
	}

	// Key order and spacing in the file do not change the content.
	reordered, _, _ := schema.DecodeJSON([]byte(`{"requestBody":{"destinationAmount":{"amount":1000,"currency":"EUR"},"destination":{"id":"20","type":"managed_cards"},"source":{"id":"100","type":"managed_accounts"},  "profileId":"110321"}}`))
	one := mustPlan(t, elements[:1], submission.PlanOptions{})
	if other := mustPlan(t, []any{reordered}, submission.PlanOptions{}); other.Chunks[0].Ref != one.Chunks[0].Ref {
		t.Error("reordered keys changed the ref")
	}
	// Numbers keep their digits: 1000 and 1000.0 are different payloads.
	changed, _, _ := schema.DecodeJSON([]byte(`{"requestBody":{"destinationAmount":{"amount":1000.0,"currency":"EUR"},"destination":{"id":"20","type":"managed_cards"},"source":{"id":"100","type":"managed_accounts"},"profileId":"110321"}}`))
	if other := mustPlan(t, []any{changed}, submission.PlanOptions{}); other.Chunks[0].Ref == one.Chunks[0].Ref {
		t.Error("a different amount literal kept the ref")
	}

	bo := mustPlan(t, elements[:1], submission.PlanOptions{BackOffice: true})
	sends, _ := schema.Lookup("sends")
	asSends, err := submission.NewPlan(sends, elements[:1], submission.PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	salted := mustPlan(t, elements[:1], submission.PlanOptions{Salt: submission.NewSalt()})
	for name, p := range map[string]*submission.Plan{"back-office": bo, "another kind": asSends, "salted": salted} {
		if p.Chunks[0].Ref == one.Chunks[0].Ref {
			t.Errorf("%s: same ref", name)
		}
	}
	if salted.Chunks[0].Digest != one.Chunks[0].Digest {
		t.Error("the salt changed the content digest")
	}
	if submission.NewSalt() == submission.NewSalt() {
		t.Error("two salts are equal")
	}
}

func TestPlanOfTheValidElementsKeepsTheirIndexes(t *testing.T) {
	elements := request(8)
	elements[2] = map[string]any{"requestBody": map[string]any{}}
	elements[5] = "not an element"
	report := schema.Default().ValidateRequest(transfers, elements)
	only := report.ValidElements()
	if !slices.Equal(only, []int{0, 1, 3, 4, 6, 7}) {
		t.Fatalf("valid indexes %v", only)
	}
	p := mustPlan(t, elements, submission.PlanOptions{Only: only, ChunkSize: 4})
	if p.Elements != 6 || len(p.Chunks) != 2 {
		t.Fatalf("%d elements in %d chunks", p.Elements, len(p.Chunks))
	}
	if got := p.Chunks[0].Elements.Indexes(); !slices.Equal(got, []int{0, 1, 3, 4}) {
		t.Errorf("chunk 1 holds %v", got)
	}
	if got := p.Chunks[1].Elements.Indexes(); !slices.Equal(got, []int{6, 7}) {
		t.Errorf("chunk 2 holds %v", got)
	}
	if len(p.Chunks[0].Elements) != 2 {
		t.Errorf("spans %v, want two runs", p.Chunks[0].Elements)
	}
}

func TestControlTotalsAreExact(t *testing.T) {
	elements := request(3)
	big, _, _ := schema.DecodeJSON([]byte(`{"requestBody":{"destinationAmount":{"currency":"GBP","amount":9223372036854775807}}}`))
	elements = append(elements, big, big)
	p := mustPlan(t, elements, submission.PlanOptions{ChunkSize: 2})
	tot := submission.ControlTotals(p, elements)
	if tot.Elements != 5 || tot.Chunks != 3 || len(tot.Amounts) != 2 {
		t.Fatalf("totals %+v", tot)
	}
	if eur := tot.Amounts[0]; eur.Currency != "EUR" || eur.Minor.String() != "3003" || eur.Count != 3 {
		t.Errorf("EUR %v %d", eur.Minor, eur.Count)
	}
	if gbp := tot.Amounts[1]; gbp.Minor.String() != "18446744073709551614" {
		t.Errorf("GBP %v", gbp.Minor)
	}
	blocks, _ := schema.Lookup("card_blocks")
	bp, _ := submission.NewPlan(blocks, []any{map[string]any{}}, submission.PlanOptions{})
	if tot := submission.ControlTotals(bp, []any{map[string]any{}}); tot.Amounts != nil || tot.Elements != 1 {
		t.Errorf("card blocks totals %+v", tot)
	}
}
