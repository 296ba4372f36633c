package schema

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"time"
)

// The checks in this file go beyond the contract: the API accepts these
// values, but an operator almost never means them. They are warnings, never
// errors, so that a deliberate choice can still be sent.

// mistakes appends warnings about likely mistakes in element i.
func (v *Validator) mistakes(k *Kind, i int, element map[string]any, out []Problem) []Problem {
	body, _ := element["requestBody"].(map[string]any)
	if body == nil {
		return out
	}
	if k.Amount != "" {
		loc := []string{"requestBody", k.Amount, "amount"}
		if n, ok := signAt(element, loc); ok && n <= 0 {
			what := "zero: nothing would be moved"
			if n < 0 {
				what = "negative: amounts are always positive, the direction comes from the source and the destination"
			}
			out = append(out, warning(i, loc, "non-positive-amount", fmt.Sprintf("%s is %s", FieldName(loc), what)))
		}
	}
	if ts, ok := body["scheduledTimestamp"].(string); ok {
		out = v.checkSchedule(i, ts, out)
	}
	if k.ID == "card_spend_rules" {
		out = spendRuleMistakes(i, element, body, out)
	}
	return out
}

func (v *Validator) checkSchedule(i int, ts string, out []Problem) []Problem {
	loc := []string{"requestBody", "scheduledTimestamp"}
	ms, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return out // not digits, or too long: the contract check reports it
	}
	now := v.Now()
	at := time.UnixMilli(ms).UTC()
	switch {
	case len(ts) <= 10 && ms > 0:
		out = append(out, warning(i, loc, "timestamp-in-seconds", fmt.Sprintf(
			"scheduledTimestamp %s reads as %s: it looks like seconds, but the API counts milliseconds (%s000 would be %s)",
			ts, at.Format("2006-01-02 15:04 MST"), ts, time.Unix(ms, 0).UTC().Format("2006-01-02 15:04 MST"))))
	case at.Before(now):
		out = append(out, warning(i, loc, "scheduled-in-past", fmt.Sprintf(
			"scheduledTimestamp %s is %s, which is in the past", ts, at.Format("2006-01-02 15:04 MST"))))
	}
	return out
}

func spendRuleMistakes(i int, element, body map[string]any, out []Problem) []Problem {
	if len(body) == 0 {
		out = append(out, warning(i, []string{"requestBody"}, "no-change", "requestBody is empty: this update would change none of the card's rules"))
	}
	minLoc := []string{"requestBody", "minTransactionAmount"}
	maxLoc := []string{"requestBody", "maxTransactionAmount"}
	lo, okLo := numberAt(element, minLoc)
	hi, okHi := numberAt(element, maxLoc)
	if okLo && okHi && lo.Cmp(hi) > 0 {
		out = append(out, warning(i, minLoc, "min-above-max", fmt.Sprintf(
			"minTransactionAmount %s is above maxTransactionAmount %s: no payment could pass", lo.RatString(), hi.RatString())))
	}
	limits, _ := body["spendLimit"].([]any)
	for j := range limits {
		loc := []string{"requestBody", "spendLimit", strconv.Itoa(j), "value", "amount"}
		if n, ok := numberAt(element, loc); ok && n.Sign() < 0 {
			out = append(out, warning(i, loc, "negative-limit", fmt.Sprintf("%s is negative: a spend limit is a positive amount", FieldName(loc))))
		}
	}
	return out
}

// numberAt returns the number at loc, if there is one.
func numberAt(v any, loc []string) (*big.Rat, bool) {
	x, ok := lookup(v, loc)
	if !ok {
		return nil, false
	}
	n, ok := x.(json.Number)
	if !ok {
		return nil, false
	}
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return new(big.Rat).SetInt64(i), true
	}
	return new(big.Rat).SetString(string(n))
}

// signAt returns the sign of the number at loc, if there is one, without
// allocating in the common case: it runs on every element.
func signAt(v any, loc []string) (int, bool) {
	x, ok := lookup(v, loc)
	if !ok {
		return 0, false
	}
	n, ok := x.(json.Number)
	if !ok {
		return 0, false
	}
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return cmp.Compare(i, 0), true
	}
	r, ok := new(big.Rat).SetString(string(n))
	if !ok {
		return 0, false
	}
	return r.Sign(), true
}

func warning(i int, loc []string, code, msg string) Problem {
	return Problem{Element: i, Pointer: pointerOf(loc), Field: FieldName(loc), Code: code, Message: msg, Severity: Warning}
}
