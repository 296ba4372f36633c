package schema

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// patternWords says in words what the contract's patterns accept.
var patternWords = map[string]string{
	`^[0-9]+$`:                          lang.Mark("digits only"),
	`^[a-zA-Z0-9_-]+$`:                  lang.Mark("letters, digits, '_' and '-' only"),
	`^[A-Z]*$`:                          lang.Mark("capital letters only"),
	`^[A-Z]+$`:                          lang.Mark("capital letters only"),
	`^[A-Z]{2}$`:                        lang.Mark("two capital letters"),
	`^\+[0-9]+$`:                        lang.Mark("'+' followed by digits"),
	`^[0-9]{1,12}$`:                     lang.Mark("1 to 12 digits"),
	`^[a-z]{2}(-[A-Z]{2})?$`:            lang.Mark("a language code such as en or en-GB"),
	`^[a-zA-Z0-9]+$`:                    lang.Mark("letters and digits only"),
	`^[0-9]{8}$`:                        lang.Mark("exactly 8 digits"),
	`^[0-9]{6}$`:                        lang.Mark("exactly 6 digits"),
	`^[a-zA-Z0-9]{1,34}$`:               lang.Mark("letters and digits only"),
	`^[a-zA-Z0-9]{8,11}$`:               lang.Mark("8 to 11 letters and digits"),
	`^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$`: lang.Mark("an IBAN: two capital letters, two digits, then 11 to 30 capital letters or digits, without spaces"),
	`^[a-zA-Z0-9]{4}[a-zA-Z]{2}[a-zA-Z0-9]{2}[a-zA-Z0-9]{0,3}$`: lang.Mark("a BIC: 4 letters or digits, 2 letters (the country), 2 letters or digits, and an optional 3-character branch code"),
	`^[a-zA-Z0-9\/\-?:().$_,'+\s#=!"%&*<>;\{@\r\n]*$`:           lang.Mark(`Latin letters, digits, spaces and the punctuation / - ? : ( ) . $ _ , ' + # = ! " % & * < > ; { @ only`),
	`^[a-zA-Z0-9\/\-?:().,'+\s#=!"%&*<>;\{@\r\n]*$`:             lang.Mark("Latin letters, digits, spaces and the punctuation / - ? : ( ) . , ' + # = ! \" % & * < > ; { @ only"),
	"^[a-zA-Z0-9\\/\\-?:().,\u2019+\\s#=!\"%&*<>;\\{@\\r\\n]*$": lang.Mark("Latin letters, digits, spaces and the punctuation / - ? : ( ) . , \u2019 + # = ! \" % & * < > ; { @ only"),
}

// patternOnly says what the patterns that restrict a value to a set of
// characters let it contain, for "may contain only …": the natural
// sentence in every language ("darf nur Ziffern enthalten", "ne doit
// contenir que des chiffres").
var patternOnly = map[string]string{
	`^[0-9]+$`:            lang.Mark("digits"),
	`^[a-zA-Z0-9_-]+$`:    lang.Mark("letters, digits, '_' and '-'"),
	`^[A-Z]*$`:            lang.Mark("capital letters"),
	`^[A-Z]+$`:            lang.Mark("capital letters"),
	`^[a-zA-Z0-9]+$`:      lang.Mark("letters and digits"),
	`^[a-zA-Z0-9]{1,34}$`: lang.Mark("letters and digits"),
	`^[a-zA-Z0-9\/\-?:().$_,'+\s#=!"%&*<>;\{@\r\n]*$`:           lang.Mark(`Latin letters, digits, spaces and the punctuation / - ? : ( ) . $ _ , ' + # = ! " % & * < > ; { @`),
	`^[a-zA-Z0-9\/\-?:().,'+\s#=!"%&*<>;\{@\r\n]*$`:             lang.Mark("Latin letters, digits, spaces and the punctuation / - ? : ( ) . , ' + # = ! \" % & * < > ; { @"),
	"^[a-zA-Z0-9\\/\\-?:().,\u2019+\\s#=!\"%&*<>;\\{@\\r\\n]*$": lang.Mark("Latin letters, digits, spaces and the punctuation / - ? : ( ) . , \u2019 + # = ! \" % & * < > ; { @"),
}

func patternPhrase(w lang.Tag, p string) string {
	if phrase, ok := patternWords[p]; ok {
		return w.T(phrase)
	}
	return w.F("text matching the pattern %s", p)
}

// patternHint suggests the fix for the commonest ways a value misses its
// pattern.
func patternHint(w lang.Tag, pattern, got string) string {
	re, err := compilePattern(pattern)
	if err != nil {
		return ""
	}
	switch {
	case strings.ContainsRune(got, '\'') && strings.ContainsRune(pattern, '\u2019') && re.MatchString(strings.ReplaceAll(got, "'", "\u2019")):
		return w.T(" (use \u2019 instead of the apostrophe ')")
	case strings.ContainsRune(got, '\u2019') && strings.ContainsRune(pattern, '\'') && re.MatchString(strings.ReplaceAll(got, "\u2019", "'")):
		return w.T(" (use the apostrophe ' instead of \u2019)")
	case strings.TrimSpace(got) != got && re.MatchString(strings.TrimSpace(got)):
		return w.T(" (remove the spaces at the start or end)")
	case strings.ContainsAny(got, " -") && re.MatchString(strings.NewReplacer(" ", "", "-", "").Replace(got)):
		return w.T(" (remove the spaces and dashes)")
	case strings.ToUpper(got) != got && re.MatchString(strings.ToUpper(got)):
		return w.T(" (use capital letters)")
	}
	return ""
}

// integerFormats check that a whole number fits the width the API stores it
// in; the library ignores these formats unless they are registered.
var integerFormats = []*jsonschema.Format{
	{Name: "int64", Validate: fitsBits(64)},
	{Name: "int32", Validate: fitsBits(32)},
}

func fitsBits(bits int) func(any) error {
	lo := new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), uint(bits-1)))
	hi := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(bits-1)), big.NewInt(1))
	return func(v any) error {
		n, ok := v.(json.Number)
		if !ok {
			return nil
		}
		if _, err := strconv.ParseInt(string(n), 10, bits); err == nil {
			return nil
		}
		r, ok := new(big.Rat).SetString(string(n))
		if !ok || !r.IsInt() {
			return nil // not a whole number: the type check reports it
		}
		if r.Num().Cmp(lo) < 0 || r.Num().Cmp(hi) > 0 {
			return fmt.Errorf("%s does not fit in %d bits", n, bits)
		}
		return nil
	}
}

// duplicateKeyProblems reports keys that appear twice in one object: the
// API would read only one of the two values, and nobody can tell which one
// the operator meant.
func duplicateKeyProblems(w lang.Tag, dups []string) []Problem {
	var out []Problem
	for _, ptr := range dups {
		tokens := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
		elem, err := strconv.Atoi(tokens[0])
		if err != nil {
			continue
		}
		loc := unescapeTokens(tokens[1:])
		out = append(out, Problem{
			Element:  elem,
			Pointer:  pointerOf(loc),
			Field:    FieldName(loc),
			Code:     "duplicate-key",
			Message:  w.F("%s appears twice in the same object: keep one of the two values", subjectOf(w, loc)),
			Severity: Error,
		})
	}
	return out
}

func unescapeTokens(tokens []string) []string {
	out := make([]string, len(tokens))
	for i, t := range tokens {
		out[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return out
}
