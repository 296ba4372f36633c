package ingest_test

import "testing"

func TestEachValueGivesWhatValueGives(t *testing.T) {
	csv := "card id,spendLimit[0].value.currency,spendLimit[0].value.amount,spendLimit[0].interval,allowedMerchantCountries\n" +
		"c1,EUR,1000,DAILY,GB; FR\nc2,USD,2000,,\n,,,,\nc3,GBP,,WEEKLY,DE\n"
	res := importOf(t, "rules.csv", []byte(csv), "card_spend_rules").Build(nil)
	n := 0
	res.EachValue(func(i int, v map[string]any) {
		if got, want := asJSON(v), asJSON(res.Value(i)); got != want {
			t.Errorf("element %d: EachValue gives %s, Value %s", i, got, want)
		}
		n++
	})
	if n != len(res.Elements) || n != 3 {
		t.Errorf("%d elements visited of %d", n, len(res.Elements))
	}
}
