package schema

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// A Field is one value an element can carry, described for operators: the
// column of a spreadsheet, a line of a template's help sheet, a tooltip.
type Field struct {
	// Path is the dotted path of the value inside the element, as
	// FieldName writes it, with "[]" for "every item of this list":
	// "destinationAmount.amount", "pathParams._id_", "spendLimit[].interval".
	Path        string
	Title       string
	Description string
	// Type is the JSON type: string, integer, number, boolean, or array
	// (of ItemType values).
	Type     string
	ItemType string
	// Format is "email", "date", "int64", … or "".
	Format string
	// Enum lists the allowed values, for the field or the list's items.
	Enum []string
	// Pattern is the ECMA-262 pattern the text must match, with its meaning
	// in words in PatternText.
	Pattern, PatternText string
	MinLength, MaxLength *int
	Minimum, Maximum     string
	MaxItems             *int
	// Required means the field must be present whenever the object that
	// holds it is. Conditional means it belongs to only some forms of its
	// object (one kind of beneficiary, say) and its rules apply there.
	Required, Conditional bool
	Deprecated            bool
	// Timestamp marks a field that takes a moment as milliseconds since
	// 1 January 1970 UTC (written as digits or as a whole number): the
	// overlay names them, and a contract loaded at run time marks one by
	// its name and description (see isEpochMillis). A reader takes dates
	// and date-times for it, in a time zone the operator chose.
	Timestamp bool
}

// Rules describes the field's constraints in one short phrase in l, for
// help text: "text; 1 to 50 characters", "whole number; at least 0", ….
func (f *Field) Rules(l lang.Tag) string {
	var parts []string
	switch {
	case f.Type == "array":
		parts = append(parts, l.F("list of %s, separated by commas", typeNoun(l, f.ItemType, f.Format)))
		if f.MaxItems != nil {
			parts = append(parts, l.F("at most %d", *f.MaxItems))
		}
	default:
		parts = append(parts, typeNoun(l, f.Type, f.Format))
	}
	if len(f.Enum) > 0 {
		parts = append(parts, l.F("one of %s", strings.Join(f.Enum, ", ")))
	}
	switch {
	case f.MinLength != nil && f.MaxLength != nil && *f.MinLength == *f.MaxLength:
		parts = append(parts, counted(l, *f.MaxLength, "1 character", "%s characters"))
	case f.MinLength != nil && f.MaxLength != nil:
		parts = append(parts, l.F("%d to %d characters", *f.MinLength, *f.MaxLength))
	case f.MaxLength != nil:
		parts = append(parts, counted(l, *f.MaxLength, "at most 1 character", "at most %s characters"))
	case f.MinLength != nil && *f.MinLength > 1:
		parts = append(parts, l.F("at least %d characters", *f.MinLength))
	}
	if f.PatternText != "" {
		parts = append(parts, l.T(f.PatternText))
	}
	switch {
	case f.Minimum != "" && f.Maximum != "":
		parts = append(parts, l.F("%s to %s", f.Minimum, f.Maximum))
	case f.Minimum != "":
		parts = append(parts, l.F("at least %s", f.Minimum))
	case f.Maximum != "":
		parts = append(parts, l.F("at most %s", f.Maximum))
	}
	return l.Clauses(parts...)
}

func typeNoun(l lang.Tag, t, format string) string {
	switch {
	case format == "date":
		return l.T("date (YYYY-MM-DD)")
	case format == "email":
		return l.T("email address")
	case t == "integer":
		return l.T("whole number")
	case t == "boolean":
		return l.T("TRUE or FALSE")
	case t == "number":
		return l.T("number")
	}
	return l.T("text")
}

// collectFields lists the leaf fields of an element schema: scalars and
// lists of scalars, with objects opened up into dotted paths. Where several
// forms of an object define the same field, what they say is merged, the
// first word on each point winning.
func collectFields(root *jsonschema.Schema) []Field {
	var c fieldCollector
	c.walk([]propDef{{schema: root}}, nil, true, false, 0)
	return c.fields
}

type fieldCollector struct {
	fields []Field
}

// walk visits the schemas that define one value at path. required says
// whether the value must be present whenever its parent is; conditional
// whether it applies only in some forms of an enclosing object.
func (c *fieldCollector) walk(defs []propDef, path []string, required, conditional bool, depth int) {
	if depth > 32 {
		return
	}
	merged := &flatSchema{props: make(map[string]*propDefs), required: make(map[string]bool)}
	seen := make(map[*jsonschema.Schema]bool)
	onlyConditional := true
	for _, d := range defs {
		merged.add(d.schema, d.conditional, seen)
		onlyConditional = onlyConditional && d.conditional
	}
	conditional = conditional || (onlyConditional && len(path) > 0)
	if hasType(merged, "object") || len(merged.props) > 0 {
		for _, name := range merged.propNames() {
			c.walk(merged.props[name].defs, append(slices.Clip(path), name), required && merged.required[name], conditional, depth+1)
		}
		return
	}
	if hasType(merged, "array") && merged.items != nil && hasType(flatten(merged.items), "object") {
		c.walk([]propDef{{schema: merged.items}}, append(slices.Clip(path), "[]"), false, conditional, depth+1)
		return
	}
	if len(path) == 0 {
		return
	}
	name := dottedPath(path)
	f := primaryDefs(defs).field(name)
	if f.Description == "" {
		f.Description = merged.field(name).Description
	}
	f.Required = required
	f.Conditional = conditional
	c.fields = append(c.fields, f)
}

// primaryDefs flattens the definitions that describe a leaf field: those
// that always apply, or else the first form that defines it. Rules that only
// some forms add are explained by the field's description instead.
func primaryDefs(defs []propDef) *flatSchema {
	var primary []propDef
	for _, d := range defs {
		if !d.conditional {
			primary = append(primary, d)
		}
	}
	if len(primary) == 0 {
		primary = defs[:1]
	}
	f := &flatSchema{props: make(map[string]*propDefs), required: make(map[string]bool)}
	seen := make(map[*jsonschema.Schema]bool)
	for _, d := range primary {
		f.add(d.schema, false, seen)
	}
	return f
}

// dottedPath writes path tokens as a Field path, dropping "requestBody".
func dottedPath(path []string) string {
	if len(path) > 0 && path[0] == "requestBody" {
		path = path[1:]
	}
	var b strings.Builder
	for _, t := range path {
		if t == "[]" {
			b.WriteString("[]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(t)
	}
	return b.String()
}

// flatSchema is what a schema and everything it always or sometimes
// includes ($ref, allOf, if/then/else, oneOf branches) say together.
type flatSchema struct {
	types      []string
	props      map[string]*propDefs
	order      []string
	required   map[string]bool
	items      *jsonschema.Schema
	leaf       []*jsonschema.Schema
	deprecated bool
}

type propDefs struct {
	defs []propDef
}

type propDef struct {
	schema      *jsonschema.Schema
	conditional bool
}

func (f *flatSchema) propNames() []string { return f.order }

func hasType(f *flatSchema, t string) bool { return slices.Contains(f.types, t) }

func flatten(s *jsonschema.Schema) *flatSchema {
	f := &flatSchema{props: make(map[string]*propDefs), required: make(map[string]bool)}
	f.add(s, false, make(map[*jsonschema.Schema]bool))
	return f
}

func (f *flatSchema) add(s *jsonschema.Schema, conditional bool, seen map[*jsonschema.Schema]bool) {
	if s == nil || seen[s] {
		return
	}
	seen[s] = true
	f.leaf = append(f.leaf, s)
	if s.Types != nil {
		for _, t := range s.Types.ToStrings() {
			if !slices.Contains(f.types, t) {
				f.types = append(f.types, t)
			}
		}
	}
	if s.Deprecated {
		f.deprecated = true
	}
	if !conditional {
		for _, r := range s.Required {
			f.required[r] = true
		}
	}
	for _, n := range writtenOrder(s) {
		pd := f.props[n]
		if pd == nil {
			pd = &propDefs{}
			f.props[n] = pd
			f.order = append(f.order, n)
		}
		pd.defs = append(pd.defs, propDef{s.Properties[n], conditional})
	}
	if s.Items2020 != nil && f.items == nil {
		f.items = s.Items2020
	}
	f.add(s.Ref, conditional, seen)
	for _, a := range s.AllOf {
		f.add(a, conditional, seen)
	}
	// if/then/else and oneOf branches describe forms the object may take:
	// their fields exist, but only in those forms. An "if" only tests.
	f.add(s.Then, true, seen)
	f.add(s.Else, true, seen)
	for _, o := range s.OneOf {
		f.add(o, true, seen)
	}
	for _, o := range s.AnyOf {
		f.add(o, true, seen)
	}
}

// field describes a leaf from everything its schemas say, the first word
// on each point winning.
func (f *flatSchema) field(path string) Field {
	out := Field{Path: path, Deprecated: f.deprecated}
	for _, t := range []string{"string", "integer", "number", "boolean", "array"} {
		if hasType(f, t) {
			out.Type = t
			break
		}
	}
	for _, s := range f.leaf {
		if out.Title == "" {
			out.Title = s.Title
		}
		if out.Description == "" {
			out.Description = s.Description
		}
		if out.Format == "" && s.Format != nil {
			out.Format = s.Format.Name
		}
		if out.Enum == nil && s.Enum != nil {
			out.Enum = enumStrings(s.Enum.Values)
		}
		if out.Pattern == "" && s.Pattern != nil {
			out.Pattern = s.Pattern.String()
			out.PatternText = patternWords[out.Pattern]
		}
		if out.MinLength == nil {
			out.MinLength = s.MinLength
		}
		if out.MaxLength == nil {
			out.MaxLength = s.MaxLength
		}
		if out.Minimum == "" && s.Minimum != nil {
			out.Minimum = ratText(s.Minimum)
		}
		if out.Maximum == "" && s.Maximum != nil {
			out.Maximum = ratText(s.Maximum)
		}
		if out.MaxItems == nil {
			out.MaxItems = s.MaxItems
		}
	}
	if out.Type == "array" && f.items != nil {
		items := flatten(f.items).field(path)
		out.ItemType = items.Type
		out.Format = items.Format
		out.Enum = items.Enum
		out.Pattern, out.PatternText = items.Pattern, items.PatternText
		out.MinLength, out.MaxLength = items.MinLength, items.MaxLength
	}
	if out.Title == "" {
		out.Title = path
	}
	return out
}

func enumStrings(vs []any) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = fmt.Sprint(v)
	}
	return out
}

// describeFields gives kind k's fields this project's words from the
// overlay; a field it has none for (one only a newer contract has) keeps
// what the contract says of it, or its path.
func (v *Validator) describeFields(k *Kind, fields []Field) []Field {
	for i := range fields {
		f := &fields[i]
		f.Timestamp = v.overlay.IsTimestamp(k, f.Path) || isEpochMillis(f)
		if w, ok := v.overlay.WordsFor(k, f.Path); ok {
			f.Title, f.Description = w.Title, w.Description
		}
	}
	return fields
}

// isEpochMillis reports a field the contract itself describes as epoch
// milliseconds: its name ends in "Timestamp", it is digits or a whole
// number, and its description speaks of milliseconds since the epoch
// (1970, Unix). A newer contract's new timestamp fields are read as
// dates without a change to the overlay.
func isEpochMillis(f *Field) bool {
	name := f.Path[strings.LastIndexAny(f.Path, ".]")+1:]
	if !strings.HasSuffix(name, "Timestamp") || f.Type != "integer" && f.Type != "string" {
		return false
	}
	d := strings.ToLower(f.Description)
	return strings.Contains(d, "millisecond") && (strings.Contains(d, "epoch") || strings.Contains(d, "1970") || strings.Contains(d, "unix"))
}
