package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// explain turns the library's error tree for element i into one Problem per
// leaf: the library's own summary at the top ("validation failed") says
// nothing an operator can act on.
func (ck *compiledKind) explain(i int, element any, err error) []Problem {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Problem{{Element: i, Code: "invalid", Message: err.Error(), Severity: Error}}
	}
	var out []Problem
	seen := make(map[string]bool)
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		switch k := e.ErrorKind.(type) {
		case *kind.Schema, *kind.Group, *kind.AllOf, *kind.Reference:
			for _, c := range e.Causes {
				walk(c)
			}
			return
		case *kind.OneOf:
			if len(k.Subschemas) == 0 {
				if c := ck.closestBranch(element, e); c != nil {
					walk(c)
					return
				}
			}
		}
		for _, p := range ck.leafProblems(i, element, e) {
			if ck.advisory {
				p.Message = ck.w.F("%s: the API accepts this, but its documentation says %s", p.Message, ck.w.T(ck.thenDescription(e.SchemaURL, lang.Mark("otherwise"))))
			}
			key := p.Pointer + "\x00" + p.Message
			if !seen[key] {
				seen[key] = true
				out = append(out, p)
			}
		}
	}
	walk(ve)
	return out
}

// leafProblems explains one leaf error; a missing-fields error becomes one
// problem per missing field.
func (ck *compiledKind) leafProblems(i int, element any, e *jsonschema.ValidationError) []Problem {
	loc := e.InstanceLocation
	base := Problem{Element: i, Pointer: pointerOf(loc), Field: FieldName(loc), Severity: Error}
	value, _ := lookup(element, loc)
	base.Value = jsonText(value)
	w := ck.w
	// The value as the message shows it: text between the language's
	// quotation marks, anything else as JSON writes it.
	shown := shownValue(w, value)
	subject := subjectOf(w, loc)

	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		var out []Problem
		for _, m := range k.Missing {
			path := append(append([]string{}, loc...), m)
			p := Problem{Element: i, Pointer: pointerOf(path), Field: FieldName(path), Code: "required", Severity: Error, Expected: w.T("a value")}
			// Advice cannot say "required" of what the API accepts.
			format := lang.Mark("%s is required%s%s")
			if ck.advisory {
				format = lang.Mark("%s is missing%s%s")
			}
			p.Message = w.F(format, subjectOf(w, path), requiredHint(w, path), ck.reason(e.SchemaURL))
			out = append(out, p)
		}
		return out
	case *kind.Type:
		base.Code = "type"
		base.Expected = typeNames(w, k.Want)
		base.Message = w.F("%s must be %s; found %s", subject, base.Expected, describeJSON(w, value))
		if len(loc) == 0 {
			base.Message = w.F(`the element must be an object such as {"pathParams": {…}, "requestBody": {…}}; found %s`, describeJSON(w, value))
		}
	case *kind.Enum:
		base.Code = "enum"
		base.Expected = w.F("one of %s", joinValues(k.Want))
		base.Message = w.F("%s must be %s; found %s", subject, base.Expected, shown)
	case *kind.Const:
		base.Code = "const"
		base.Expected = shownValue(w, k.Want)
		base.Message = w.F("%s must be %s; found %s", subject, base.Expected, shown)
	case *kind.Pattern:
		base.Code = "pattern"
		base.Expected = patternPhrase(w, k.Want)
		base.Message = w.F("%s must be %s; found %s%s%s", subject, base.Expected, shown, patternHint(w, k.Want, k.Got), ck.reason(e.SchemaURL))
		if only, ok := patternOnly[k.Want]; ok {
			base.Message = w.F("%s may contain only %s; found %s%s%s", subject, w.T(only), shown, patternHint(w, k.Want, k.Got), ck.reason(e.SchemaURL))
		}
	case *kind.MinLength:
		base.Code = "min-length"
		base.Expected = counted(w, k.Want, "at least 1 character", "at least %s characters")
		base.Message = w.F("%s must be %s long; %s has %d", subject, base.Expected, shown, k.Got)
		if k.Got == 0 {
			base.Message = w.F("%s must not be empty (leave the field out instead)", subject)
		}
	case *kind.MaxLength:
		base.Code = "max-length"
		base.Expected = counted(w, k.Want, "at most 1 character", "at most %s characters")
		base.Message = w.F("%s must be %s long; it has %d: %s%s", subject, base.Expected, k.Got, shown, ck.reason(e.SchemaURL))
	case *kind.Minimum:
		base.Code = "minimum"
		base.Expected = w.F("at least %s", ratText(k.Want))
		base.Message = w.F("%s must be %s; found %s", subject, base.Expected, shown)
	case *kind.Maximum:
		base.Code = "maximum"
		base.Expected = w.F("at most %s", ratText(k.Want))
		base.Message = w.F("%s must be %s; found %s", subject, base.Expected, shown)
	case *kind.MaxItems:
		base.Code = "max-items"
		base.Expected = counted(w, k.Want, "at most 1 item", "at most %s items")
		base.Message = w.F("%s may hold %s; it holds %d", subject, base.Expected, k.Got)
	case *kind.MinItems:
		base.Code = "min-items"
		base.Expected = counted(w, k.Want, "at least 1 item", "at least %s items")
		base.Message = w.F("%s must hold %s; it holds %d", subject, base.Expected, k.Got)
	case *kind.Format:
		base.Code = "format"
		base.Expected = formatPhrase(w, k.Want)
		base.Message = w.F("%s must be %s; found %s", subject, base.Expected, shown)
	case *kind.OneOf:
		base.Code = "one-of"
		base.Value = ""
		titles := ck.branchTitles(e.SchemaURL)
		base.Expected = w.F("exactly one of: %s", w.Clauses(titles...))
		if len(k.Subschemas) == 0 {
			base.Message = w.F("%s must be %s. It is none of them", subject, base.Expected)
		} else {
			var matched []string
			for _, s := range k.Subschemas {
				if s < len(titles) {
					matched = append(matched, titles[s])
				}
			}
			base.Message = w.F("%s must be exactly one kind, but its fields make it both %s: keep the fields of one kind only", subject, strings.Join(matched, w.T(" and ")))
		}
	case *kind.Not:
		base.Code = "not"
		base.Value = ""
		what := w.T("this combination of fields")
		if n := ck.nodes[e.SchemaURL]; n != nil && n.Not != nil && n.Not.Title != "" {
			what = w.T(n.Not.Title)
		}
		base.Message = w.F("%s must not have %s", subject, what)
	case *kind.ExclusiveMinimum:
		base.Code = "minimum"
		base.Expected = w.F("more than %s", ratText(k.Want))
		base.Message = w.F("%s must be %s; found %s", subject, base.Expected, shown)
	case *kind.ExclusiveMaximum:
		base.Code = "maximum"
		base.Expected = w.F("less than %s", ratText(k.Want))
		base.Message = w.F("%s must be %s; found %s", subject, base.Expected, shown)
	case *kind.MultipleOf:
		base.Code = "multiple-of"
		base.Expected = w.F("a multiple of %s", ratText(k.Want))
		base.Message = w.F("%s must be %s; found %s", subject, base.Expected, shown)
	case *kind.UniqueItems:
		base.Code = "unique-items"
		base.Message = w.F("%s must not hold the same item twice; items %d and %d are the same", subject, k.Duplicates[0]+1, k.Duplicates[1]+1)
	case *kind.AnyOf:
		base.Code = "any-of"
		base.Value = ""
		base.Message = w.F("%s matches none of the forms the contract allows", subject)
	default:
		// A keyword of a loaded contract that no message above says: named
		// by its place in the schema, without the library's English.
		base.Code = "invalid"
		base.Message = w.F("%s does not meet the contract's rules", subject)
		if kp := e.ErrorKind.KeywordPath(); len(kp) > 0 {
			base.Message = w.F("%s does not meet the contract's rule %s", subject, kp[len(kp)-1])
		}
	}
	return []Problem{base}
}

// reason returns why a conditional rule applies: the description of the
// "then" schema that holds the failed keyword, if there is one.
func (ck *compiledKind) reason(url string) string {
	if d := ck.thenDescription(url, ""); d != "" && !ck.advisory {
		return " (" + ck.w.T(d) + ")"
	}
	return "" // advice says it after the whole sentence (see explain)
}

// thenDescription is the description of the innermost "then" schema that
// holds the keyword at url, or otherwise.
func (ck *compiledKind) thenDescription(url, otherwise string) string {
	for loc := url; ; {
		i := strings.LastIndex(loc, "/then")
		if i < 0 {
			return otherwise
		}
		loc = loc[:i+len("/then")]
		if n := ck.nodes[loc]; n != nil && n.Description != "" {
			return n.Description
		}
		loc = loc[:i]
	}
}

// branchTitles returns the titles of the oneOf branches of the schema at url.
func (ck *compiledKind) branchTitles(url string) []string {
	n := ck.nodes[strings.TrimSuffix(url, "/oneOf")]
	if n == nil {
		return nil
	}
	titles := make([]string, len(n.OneOf))
	for i, b := range n.OneOf {
		for b.Title == "" && b.Ref != nil {
			b = b.Ref
		}
		titles[i] = ck.w.T(b.Title)
		if b.Title == "" {
			titles[i] = ck.w.F("form %d", i+1)
		}
	}
	return titles
}

// closestBranch picks, for a value that matches none of a oneOf's shapes,
// the shape it was most likely meant to be, so that its problems are told
// at the fields at fault instead of "none of them": the shape that
// declares the most of the value's fields, then has the most of its
// required fields present, if one leads alone. It returns that shape's
// errors, or nil.
func (ck *compiledKind) closestBranch(element any, e *jsonschema.ValidationError) *jsonschema.ValidationError {
	n := ck.nodes[strings.TrimSuffix(e.SchemaURL, "/oneOf")]
	value, _ := lookup(element, e.InstanceLocation)
	obj, ok := value.(map[string]any)
	if n == nil || !ok {
		return nil
	}
	type score struct{ undeclared, present int }
	better := func(a, b score) bool {
		return a.undeclared < b.undeclared || (a.undeclared == b.undeclared && a.present > b.present)
	}
	best, tie := -1, false
	var top score
	for j, b := range n.OneOf {
		declared, required := shapeOf(b, 0)
		var sc score
		for name := range obj {
			if !declared[name] {
				sc.undeclared++
			}
		}
		for _, r := range required {
			if _, ok := obj[r]; ok {
				sc.present++
			}
		}
		switch {
		case best < 0 || better(sc, top):
			best, top, tie = j, sc, false
		case !better(top, sc):
			tie = true
		}
	}
	if best < 0 || tie || top.present == 0 {
		return nil
	}
	prefix := strings.TrimSuffix(e.SchemaURL, "/oneOf") + "/oneOf/" + strconv.Itoa(best)
	for _, c := range e.Causes {
		if c.SchemaURL == prefix || strings.HasPrefix(c.SchemaURL, prefix+"/") {
			return c
		}
	}
	return nil
}

// shapeOf returns the fields schema s declares and those it requires,
// through its references and allOf layers.
func shapeOf(s *jsonschema.Schema, depth int) (declared map[string]bool, required []string) {
	declared = make(map[string]bool)
	var walk func(s *jsonschema.Schema, depth int)
	walk = func(s *jsonschema.Schema, depth int) {
		if s == nil || depth > 16 {
			return
		}
		for name := range s.Properties {
			declared[name] = true
		}
		required = append(required, s.Required...)
		walk(s.Ref, depth+1)
		for _, a := range s.AllOf {
			walk(a, depth+1)
		}
	}
	walk(s, depth)
	return declared, required
}

// FieldName names a location as operators read it: the request body's
// fields by their dotted path ("destinationAmount.amount",
// "spendLimit[0].value.amount"), path parameters as "pathParams._id_".
func FieldName(loc []string) string {
	if len(loc) > 0 && loc[0] == "requestBody" {
		loc = loc[1:]
		if len(loc) == 0 {
			return "requestBody"
		}
	}
	var b strings.Builder
	for _, t := range loc {
		if _, err := strconv.Atoi(t); err == nil && b.Len() > 0 {
			b.WriteString("[" + t + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(t)
	}
	return b.String()
}

func subjectOf(w lang.Tag, loc []string) string {
	if len(loc) == 0 {
		return w.T("the element")
	}
	return FieldName(loc)
}

func requiredHint(w lang.Tag, path []string) string {
	switch {
	case len(path) == 1 && path[0] == "requestBody":
		return w.T(": this kind of bulk needs the operation's fields under requestBody")
	case len(path) == 1 && path[0] == "pathParams":
		return w.T(": this kind of bulk needs the id of what each element acts on")
	}
	return ""
}

// lookup returns the value at loc inside v.
func lookup(v any, loc []string) (any, bool) {
	for _, t := range loc {
		switch c := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = c[t]; !ok {
				return nil, false
			}
		case []any:
			n, err := strconv.Atoi(t)
			if err != nil || n < 0 || n >= len(c) {
				return nil, false
			}
			v = c[n]
		default:
			return nil, false
		}
	}
	return v, true
}

// jsonText renders a value as JSON, cut short for messages.
func jsonText(v any) string {
	// Without HTML escaping: "O'Brien & Sons" must read as the cell does,
	// not as "O'Brien \u0026 Sons".
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return truncate(strings.TrimSuffix(b.String(), "\n"), maxValueLen)
}

// shownValue is a value as a message shows it: text between w's
// quotation marks („mg2“), cut short; anything else as JSON writes it.
func shownValue(w lang.Tag, v any) string {
	if s, ok := v.(string); ok {
		return w.Quote(truncate(s, maxValueLen))
	}
	return jsonText(v)
}

// describeJSON says what sort of value v is, with the value when it is short.
func describeJSON(w lang.Tag, v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return w.F("text %s", shownValue(w, x))
	case json.Number:
		return w.F("the number %s", string(x))
	case bool:
		return w.F("the boolean %s", strconv.FormatBool(x))
	case []any:
		return counted(w, len(x), "a list of 1 item", "a list of %s items")
	case map[string]any:
		return w.T("an object")
	}
	return fmt.Sprintf("%T", v)
}

var typeWords = map[string]string{
	"integer": lang.Mark("a whole number"),
	"number":  lang.Mark("a number"),
	"string":  lang.Mark("text (in double quotes)"),
	"boolean": lang.Mark("true or false"),
	"object":  "an object",
	"array":   "a list",
	"null":    "null",
}

func typeNames(w lang.Tag, want []string) string {
	words := make([]string, len(want))
	for i, t := range want {
		words[i] = w.T(typeWords[t])
		if words[i] == "" {
			words[i] = t
		}
	}
	return strings.Join(words, w.T(" or "))
}

func joinValues(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		if s, ok := v.(string); ok {
			parts[i] = s
		} else {
			parts[i] = jsonText(v)
		}
	}
	return strings.Join(parts, ", ")
}

func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	return r.FloatString(6)
}

var formatWords = map[string]string{
	"email": lang.Mark("an email address"),
	"date":  lang.Mark("a date written YYYY-MM-DD"),
	"int64": lang.Mark("a whole number that fits in 64 bits (at most 9223372036854775807)"),
	"int32": lang.Mark("a whole number that fits in 32 bits (at most 2147483647)"),
}

func formatPhrase(w lang.Tag, f string) string {
	if phrase, ok := formatWords[f]; ok {
		return w.T(phrase)
	}
	return w.F("in the %s format", f)
}

// Thousands writes n with comma separators, as operators read counts.
func Thousands(n int64) string { return money.FormatWith(n, 0, money.Point) }
