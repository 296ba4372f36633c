package schema

import (
	"cmp"
	"encoding/json"
	"math/big"
	"strconv"
	"time"
)

// The checks in this file are the overlay's advise entries written in Go
// (overlay.json names them by "check"): the API accepts these values, but
// an operator almost never means them.

// checks are the Go checks the overlay can name.
var checks = map[string]checkFunc{
	"non-positive-amount":  nonPositiveAmount,
	"timestamp-in-seconds": timestampInSeconds,
	"scheduled-in-past":    scheduledInPast,
	"scheduled-far-ahead":  scheduledFarAhead,
	"no-change":            spendRulesNoChange,
	"min-above-max":        spendRulesMinAboveMax,
	"negative-limit":       spendRulesNegativeLimit,
}

func nonPositiveAmount(v *Validator, k *Kind, id string, i int, element map[string]any, out []Problem) []Problem {
	if k.Amount == "" {
		return out
	}
	loc := []string{"requestBody", k.Amount, "amount"}
	if n, ok := signAt(element, loc); ok && n <= 0 {
		msg := v.w.F("%s is zero: nothing would be moved", FieldName(loc))
		if n < 0 {
			msg = v.w.F("%s is negative: amounts are always positive, the direction comes from the source and the destination", FieldName(loc))
		}
		out = append(out, warning(i, loc, id, msg))
	}
	return out
}

// scheduledAt returns the element's scheduledTimestamp as milliseconds, if
// it is digits that fit; anything else is the contract check's to report.
func scheduledAt(element map[string]any) (string, int64, bool) {
	body, _ := element["requestBody"].(map[string]any)
	ts, ok := body["scheduledTimestamp"].(string)
	if !ok {
		return "", 0, false
	}
	ms, err := strconv.ParseInt(ts, 10, 64)
	return ts, ms, err == nil
}

var scheduleLoc = []string{"requestBody", "scheduledTimestamp"}

func timestampInSeconds(v *Validator, _ *Kind, id string, i int, element map[string]any, out []Problem) []Problem {
	ts, ms, ok := scheduledAt(element)
	if !ok || !inSeconds(ts, ms) {
		return out
	}
	at := time.UnixMilli(ms).UTC()
	return append(out, warning(i, scheduleLoc, id, v.w.F(
		"scheduledTimestamp %s reads as %s: it looks like seconds, but the API counts milliseconds (%s000 would be %s)",
		ts, v.w.Moment(at), ts, v.w.Moment(time.Unix(ms, 0).UTC()))))
}

func scheduledInPast(v *Validator, _ *Kind, id string, i int, element map[string]any, out []Problem) []Problem {
	ts, ms, ok := scheduledAt(element)
	if !ok || !v.inPast(ts, ms) {
		return out
	}
	at := time.UnixMilli(ms).UTC()
	return append(out, warning(i, scheduleLoc, id, v.w.F(
		"scheduledTimestamp %s is %s, which is in the past", ts, v.w.Moment(at))))
}

// farAhead is how many years ahead a scheduled time is taken for a
// mistake in its year (2062 for 2026, a two-digit year read in the wrong
// century, a digit too many): payments are scheduled days or months
// ahead. It leaves room for the runs planned a few years out that test
// files and rehearsals use.
const farAhead = 5

func scheduledFarAhead(v *Validator, _ *Kind, id string, i int, element map[string]any, out []Problem) []Problem {
	ts, ms, ok := scheduledAt(element)
	if !ok || !v.tooFarAhead(ts, ms) {
		return out
	}
	at := time.UnixMilli(ms).UTC()
	return append(out, warning(i, scheduleLoc, id, v.w.F(
		"scheduledTimestamp %s is %s, more than %d years ahead: check its year", ts, v.w.Moment(at), farAhead)))
}

// inSeconds reports a scheduled time that looks like seconds.
func inSeconds(ts string, ms int64) bool { return len(ts) <= 10 && ms > 0 }

// inPast reports a scheduled time in the past, unless it looks like
// seconds: timestamp-in-seconds says more.
func (v *Validator) inPast(ts string, ms int64) bool {
	return !inSeconds(ts, ms) && time.UnixMilli(ms).Before(v.Now())
}

// tooFarAhead reports a scheduled time more than farAhead years ahead;
// one of ten digits or fewer is seconds, or 1970: the other checks say
// more.
func (v *Validator) tooFarAhead(ts string, ms int64) bool {
	return len(ts) > 10 && time.UnixMilli(ms).After(v.Now().AddDate(farAhead, 0, 0))
}

func spendRulesNoChange(v *Validator, _ *Kind, id string, i int, element map[string]any, out []Problem) []Problem {
	if body, ok := element["requestBody"].(map[string]any); ok && len(body) == 0 {
		out = append(out, warning(i, []string{"requestBody"}, id, v.w.T("requestBody is empty: this update would change none of the card's rules")))
	}
	return out
}

func spendRulesMinAboveMax(v *Validator, _ *Kind, id string, i int, element map[string]any, out []Problem) []Problem {
	minLoc := []string{"requestBody", "minTransactionAmount"}
	maxLoc := []string{"requestBody", "maxTransactionAmount"}
	lo, okLo := numberAt(element, minLoc)
	hi, okHi := numberAt(element, maxLoc)
	if okLo && okHi && lo.Cmp(hi) > 0 {
		out = append(out, warning(i, minLoc, id, v.w.F(
			"minTransactionAmount %s is above maxTransactionAmount %s: no payment could pass", lo.RatString(), hi.RatString())))
	}
	return out
}

func spendRulesNegativeLimit(v *Validator, _ *Kind, id string, i int, element map[string]any, out []Problem) []Problem {
	body, _ := element["requestBody"].(map[string]any)
	limits, _ := body["spendLimit"].([]any)
	for j := range limits {
		loc := []string{"requestBody", "spendLimit", strconv.Itoa(j), "value", "amount"}
		if n, ok := numberAt(element, loc); ok && n.Sign() < 0 {
			out = append(out, warning(i, loc, id, v.w.F("%s is negative: a spend limit is a positive amount", FieldName(loc))))
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
