package ingest

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/schema"
)

// Plausibility warnings point at values the API accepts but that are very
// likely mistakes of the file: an amount in the wrong units, an amount
// above what the operator expects to pay, an id that lost or gained a
// digit. They are warnings, never errors.
//
// Each check is defined once, in a file of its own: the amounts against
// their currency's median and the operator's limits (amountoutliers.go,
// [AmountWarnings]; the limits themselves in amountlimits.go) and the
// lengths of ids (idlengths.go, idLengthWarning). A build records what
// they need of every amount and id column of a table (buildchecks.go),
// and a JSON request body gets them through [RequestWarnings].
const (
	// AmountOutlierCode marks an amount at least OutlierFactor times the
	// median of the file's amounts in its currency.
	AmountOutlierCode = "amount-outlier"
	// AmountAboveLimitCode marks an amount above the operator's limit
	// for its currency ([Import.SetAmountLimits]).
	AmountAboveLimitCode = "amount-above-limit"
	// IDLengthCode marks the ids of a column whose lengths differ.
	IDLengthCode = "id-length"
)

const (
	// OutlierFactor is how many times the median of its currency an
	// amount must be to be reported: 100 is a file in major units read
	// as minor units, or an amount typed in cents among amounts in euros.
	OutlierFactor = 100
	// MinAmountsForMedian is how many valid, positive amounts a currency
	// needs in one file before its median means something: with fewer,
	// no amount of that currency is an outlier.
	MinAmountsForMedian = 3
)

// isPlausibilityCode reports the codes of the checks over whole columns,
// which are computed again after every edit.
func isPlausibilityCode(code string) bool {
	return code == AmountOutlierCode || code == AmountAboveLimitCode || code == IDLengthCode
}

// RequestWarnings returns every plausibility warning of a JSON request
// body of kind k, whose fields are given, in element order: those of its
// amounts (RequestAmountWarnings) and of its ids (RequestIDWarnings).
func RequestWarnings(w lang.Tag, k *schema.Kind, fields []schema.Field, elements []any, limits AmountLimits) []schema.Problem {
	return RequestElementWarnings(w, k, fields, NewRequestElements(elements), limits)
}

// RequestElementWarnings is RequestWarnings for elements read one at a
// time, as a file's are kept.
func RequestElementWarnings(w lang.Tag, k *schema.Kind, fields []schema.Field, elements *RequestElements, limits AmountLimits) []schema.Problem {
	out := requestAmountWarnings(w, k, elements, limits)
	out = append(out, requestIDWarnings(w, fields, elements)...)
	slices.SortStableFunc(out, func(a, b schema.Problem) int { return a.Element - b.Element })
	return out
}

// pointerOf returns the JSON pointer of a field's value in an element.
func pointerOf(field string) string {
	return "/" + strings.Join(elementTokens(field), "/")
}

// wholeNumber reads an amount as a request carries it: a JSON number or
// a text of digits.
func wholeNumber(v any) (int64, bool) {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = string(x)
	case string:
		s = x
	default:
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// valueAt returns the value at toks inside an element, or nil. List
// positions are decimal tokens.
func valueAt(v any, toks []string) any {
	for _, t := range toks {
		switch c := v.(type) {
		case map[string]any:
			v = c[t]
		case []any:
			n, err := strconv.Atoi(t)
			if err != nil || n < 0 || n >= len(c) {
				return nil
			}
			v = c[n]
		case buildList:
			n, err := strconv.Atoi(t)
			if err != nil {
				return nil
			}
			v = c[n]
		default:
			return nil
		}
	}
	return v
}
