package schema

import (
	"slices"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/money"
)

// CurrencyCode is the code of the warning about a currency that is not an
// ISO 4217 code (the overlay's iso-4217-currency entry). The contract's
// pattern takes any three capital letters, so EUD passes it; the API
// refuses the operation when the bulk runs, long after the file was
// checked.
const CurrencyCode = "iso-4217-currency"

// maxSuggestedCodes is how many codes a warning offers in place of a
// wrong one: past it, naming any of them would be a guess.
const maxSuggestedCodes = 3

// isoCurrency warns of a currency code that money.Valid does not know. A
// value the contract refuses already (eur, EURO, a number, none) keeps
// that error alone: this check speaks only where the contract is silent.
func isoCurrency(v *Validator, id string, i int, loc []string, value any, out []Problem) []Problem {
	code, ok := value.(string)
	if !ok || money.Valid(code) {
		return out
	}
	ptr := pointerOf(loc)
	for _, p := range out {
		if p.Element == i && p.Pointer == ptr && p.Severity == Error {
			return out
		}
	}
	shown := code
	if !threeCapitals(code) {
		shown = jsonText(code)
	}
	msg := v.w.F("%s is not an ISO 4217 currency code: the API accepts it when the bulk is submitted, but refuses the operation when the bulk runs", shown)
	if near := nearCodes(code); len(near) > 0 {
		msg = v.w.F("%s is not an ISO 4217 currency code (did you mean %s?): the API accepts it when the bulk is submitted, but refuses the operation when the bulk runs", shown, joinOr(v, near))
	}
	p := warning(i, loc, id, msg)
	p.Value = jsonText(code)
	p.Expected = v.w.T("an ISO 4217 currency code such as EUR")
	return append(out, p)
}

// nearCodes returns the ISO 4217 codes an operator may have meant by
// code, without guessing: the code in capitals and without spaces when
// that is one, else the codes one letter away, when there are few.
func nearCodes(code string) []string {
	if up := strings.ToUpper(strings.TrimSpace(code)); up != code && money.Valid(up) {
		return []string{up}
	}
	if !threeCapitals(code) {
		return nil
	}
	var near []string
	b := []byte(code)
	for pos := range b {
		orig := b[pos]
		for c := byte('A'); c <= 'Z'; c++ {
			if c == orig {
				continue
			}
			b[pos] = c
			if money.Valid(string(b)) {
				near = append(near, string(b))
			}
		}
		b[pos] = orig
	}
	if len(near) > maxSuggestedCodes {
		return nil
	}
	slices.Sort(near)
	return near
}

// threeCapitals reports whether s is three letters A to Z, as a currency
// code is written.
func threeCapitals(s string) bool {
	if len(s) != 3 {
		return false
	}
	for i := range 3 {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// joinOr writes codes as a choice: "EUR", "AUD or EUR", "A, B or C".
func joinOr(v *Validator, codes []string) string {
	if len(codes) == 1 {
		return codes[0]
	}
	return strings.Join(codes[:len(codes)-1], ", ") + v.w.T(" or ") + codes[len(codes)-1]
}
