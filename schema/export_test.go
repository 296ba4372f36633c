package schema

import (
	"bytes"
	"regexp"
	"slices"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Verdicts returns what the pre-check and the library each say of element e;
// certain is false when the pre-check is unsure.
func Verdicts(v *Validator, k *Kind, e any) (precheckValid, certain, libraryValid bool) {
	ck := mustCompile(v, k)
	verdict := ck.check.check(e)
	return verdict == valid, verdict != unsure, ck.schema.Validate(e) == nil
}

// MatchPattern matches s with the engine the schemas use and with RE2 on
// the pattern's ECMA-262 translation; fast says whether the engine used its
// own matcher.
func MatchPattern(pattern, s string) (engine, re2, fast bool) {
	re, err := compilePattern(pattern)
	if err != nil {
		panic(err)
	}
	_, fast = re.(*classRun)
	return re.MatchString(s), regexp.MustCompile(translateECMA(pattern)).MatchString(s), fast
}

// LibraryOnly validates e with the library alone, as a straightforward use
// of it would, for the benchmark that measures what the pre-check saves.
func LibraryOnly(v *Validator, k *Kind, e any) error {
	return mustCompile(v, k).schema.Validate(e)
}

func mustCompile(v *Validator, k *Kind) *compiledKind {
	ck, err := v.compile(k)
	if err != nil {
		panic(err)
	}
	return ck
}

// ValidatorWithout returns a Validator of the built-in contract whose
// overlay lacks the entry id, to show what the entry changes.
func ValidatorWithout(id string, now func() time.Time) *Validator {
	o := *TheOverlay()
	o.Entries = slices.DeleteFunc(slices.Clone(o.Entries), func(e OverlayEntry) bool { return e.ID == id })
	v, err := NewValidator()
	if err != nil {
		panic(err)
	}
	v.overlay = &o
	v.Now = now
	return v
}

// EffectiveSchema returns kind k's built-in schema document after the
// overlay's relax and require entries: what decides validity.
func EffectiveSchema(k *Kind) any {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Builtin().Schemas[k.ID]))
	if err != nil {
		panic(err)
	}
	applyOverlay(k, doc, TheOverlay())
	return doc
}

// FlatVerdicts returns what the flat pre-check and the library each say
// of element raw; certain is false when the flat pre-check is unsure or
// the element is not read flat (tricky).
func FlatVerdicts(v *Validator, k *Kind, raw []byte) (flatValid, certain, libraryValid bool) {
	ck := mustCompile(v, k)
	var e flatElement
	verdict := unsure
	if e.read(raw) == nil && !e.tricky {
		verdict = ck.check.checkFlat(&e, 0)
	}
	el, _, err := DecodeJSON(raw)
	if err != nil {
		panic(err)
	}
	return verdict == valid, verdict != unsure, ck.schema.Validate(el) == nil
}

// FastValid reports whether the flat path takes element raw for one
// without any problem, never decoding it.
func FastValid(v *Validator, k *Kind, raw []byte) bool {
	ck := mustCompile(v, k)
	var e flatElement
	return e.read(raw) == nil && v.quietFlat(k, ck, &e)
}
