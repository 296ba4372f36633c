package wire

import (
	"encoding/binary"
	"reflect"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/keyfields"
)

// A review's elements come back from their binary layout as they were:
// columns no element fills stay out, a value holding the separator keeps
// its place, and a layout cut short or padded is refused, never read
// askew.
func TestReviewElementsTravelWhole(t *testing.T) {
	fields := []keyfields.Fields{
		{Counterparty: keyfields.Counterparty{Type: keyfields.BankAccount, Name: "Jane Doe", IBAN: "DE89370400440532013000"},
			Amount: &keyfields.Amount{Currency: "EUR", Minor: "1050"}, Reference: "Invoice 7"},
		{Counterparty: keyfields.Counterparty{Type: keyfields.BankAccount, Name: "Zoë\x00Ärger", IBAN: ""}, Reference: ""},
		{Counterparty: keyfields.Counterparty{Type: keyfields.Beneficiary, ID: "7001"}, Amount: &keyfields.Amount{Currency: "JPY", Minor: "0"}, Reference: "日本"},
	}
	in := NewReviewElements(len(fields), func(i int) keyfields.Fields { return fields[i] })
	in.MovesMoney, in.HasReference = true, true
	in.Problems = []ElementProblems{{Element: 1, Errors: []string{"The amount is missing."}}}
	data, err := in.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var out ReviewElements
	if err := out.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if out.Source != nil || out.Email != nil || len(out.IBAN) != 3 || !reflect.DeepEqual(out.Problems, in.Problems) || !out.MovesMoney {
		t.Errorf("read back %+v", out)
	}
	fields[1].Counterparty.Name = "Zoë\uFFFDÄrger"
	for i, want := range fields {
		if got := out.Fields(i); !reflect.DeepEqual(got, want) {
			t.Errorf("element %d: %+v, want %+v", i, got, want)
		}
	}

	// Cut short anywhere, or one value more in a column: refused.
	for _, bad := range [][]byte{data[:3], data[:10], data[:len(data)-3], append(append([]byte{}, data...), 0, 'x')} {
		var e ReviewElements
		if err := e.UnmarshalBinary(bad); err == nil {
			t.Errorf("%d bytes of %d read as %+v", len(bad), len(data), e)
		}
	}
	huge := append([]byte{}, data...)
	binary.BigEndian.PutUint32(huge, 1<<31)
	if err := new(ReviewElements).UnmarshalBinary(huge); err == nil {
		t.Error("a header longer than the data was read")
	}
}
