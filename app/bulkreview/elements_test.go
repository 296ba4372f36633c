package bulkreview_test

import (
	"context"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/schema"
)

// TestTheElementsOfEveryKind reviews a bulk of each kind, rebuilt from its
// operations, and reads each element back: its index, whether it is valid
// and why not, and its key fields.
func TestTheElementsOfEveryKind(t *testing.T) {
	type op struct{ path, payload string }
	type want struct {
		valid                                    bool
		counterparty, currency, minor, reference string
		source                                   string
	}
	for _, tc := range []struct {
		kind string
		ops  []op
		want []want
	}{
		{"transfers", []op{
			{"/transfers", `{"profileId":"110321","source":{"type":"managed_accounts","id":"1000000"},"destination":{"type":"managed_cards","id":"2000000"},"destinationAmount":{"currency":"EUR","amount":1050},"description":"INV-1"}`},
			{"/transfers", `{"profileId":"110321","source":{"type":"managed_accounts","id":"1000001"},"destination":{"type":"managed_cards","id":"2000001"},"destinationAmount":{"currency":"EUR","amount":-5}}`},
		}, []want{{true, "managed_cards 2000000", "EUR", "1050", "INV-1", "managed_accounts 1000000"}, {true, "managed_cards 2000001", "EUR", "-5", "", "managed_accounts 1000001"}}},
		{"sends", []op{
			{"/sends", `{"profileId":"1","source":{"type":"managed_cards","id":"9"},"destination":{"beneficiaryId":"7001"},"destinationAmount":{"currency":"GBP","amount":500},"description":"rent"}`},
			{"/sends", `{"profileId":"1","source":{"type":"managed_cards","id":"9"},"destination":{"beneficiaryId":"7002"}}`},
		}, []want{{true, "beneficiary 7001", "GBP", "500", "rent", "managed_cards 9"}, {false, "beneficiary 7002", "", "", "", "managed_cards 9"}}},
		{"outgoing_wire_transfers", []op{
			{"/outgoing_wire_transfers", `{"profileId":"1","sourceInstrument":{"type":"managed_accounts","id":"5"},"transferAmount":{"currency":"EUR","amount":250000},"description":"Salary","destinationBeneficiary":{"name":"Jane Doe","iban":"DE89370400440532013000"}}`},
			{"/outgoing_wire_transfers", `{"profileId":"1","sourceInstrument":{"type":"managed_accounts","id":"5"},"transferAmount":{"currency":"GBP","amount":100},"description":"Fee","destinationBeneficiary":{"name":"John Smith","type":"PERSONAL","accountNumber":"12345678","sortCode":"102030"}}`},
		}, []want{{true, "Jane Doe, IBAN DE89370400440532013000", "EUR", "250000", "Salary", "managed_accounts 5"}, {true, "John Smith, account 12345678, sort code 102030", "GBP", "100", "Fee", "managed_accounts 5"}}},
		{"card_blocks", []op{{"/managed_cards/127/block", ``}, {"/managed_cards/x/block", ``}},
			[]want{{true, "managed_cards 127", "", "", "", ""}, {false, "managed_cards x", "", "", "", ""}}},
		{"user_invites", []op{{"/users/55/invite", ``}}, []want{{true, "users 55", "", "", "", ""}}},
		{"users", []op{{"/users", `{"name":"Ada","surname":"Lovelace","email":"ada@example.com"}`}, {"/users", `{"name":"Bob","surname":"B","email":"not an address"}`}},
			[]want{{true, "Ada Lovelace <ada@example.com>", "", "", "", ""}, {false, "Bob B <not an address>", "", "", "", ""}}},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			k := fixture.Kind(tc.kind)
			ops := make([]bulkapi.Operation, len(tc.ops))
			for i, o := range tc.ops {
				ops[i] = bulkapi.Operation{OperationID: "op", Sequence: i, Method: k.Operation.Method, Path: o.path, RequestPayload: o.payload}
			}
			r, err := bulkreview.FromOperations(context.Background(), k, false, &bulkapi.BulkProcess{BulkID: "700", SubmittedItemsCount: len(ops)}, ops, fixture.Validator())
			if err != nil {
				t.Fatal(err)
			}
			els := r.ElementList(nil)
			if len(els) != len(tc.want) {
				t.Fatalf("%d elements", len(els))
			}
			for i, w := range tc.want {
				e := els[i]
				cur, minor := "", ""
				if e.Amount != nil {
					cur, minor = e.Amount.Currency, e.Amount.Minor
				}
				got := want{e.Valid, e.Counterparty.Text(), cur, minor, e.Reference, e.Source}
				if e.Index != i || got != w {
					t.Errorf("element %d: %+v, want %+v", e.Index, got, w)
				}
				if e.Valid != (len(e.Problems) == 0) {
					t.Errorf("element %d: valid %v with problems %q", i, e.Valid, e.Problems)
				}
			}
		})
	}
}

func TestAnElementNamesTheBulkItRepeats(t *testing.T) {
	k := fixture.Kind("card_blocks")
	ops := []bulkapi.Operation{{Sequence: 0, Path: "/managed_cards/1/block"}, {Sequence: 1, Path: "/managed_cards/2/block"}}
	r, err := bulkreview.FromOperations(context.Background(), k, false, &bulkapi.BulkProcess{BulkID: "700", SubmittedItemsCount: 2}, ops, schema.Default())
	if err != nil {
		t.Fatal(err)
	}
	els := r.ElementList([]submission.Repeat{{Element: 1, Earlier: submission.EarlierBulk{BulkID: "650"}, Others: 2}})
	if els[0].RepeatOf != nil || strings.Join(els[1].RepeatOf, ",") != "650" || els[1].RepeatOthers != 2 {
		t.Errorf("repeats %+v", els)
	}
}
