package ingest

import (
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/schema"
)

// A target is a value of an element a column can fill: a leaf field of the
// kind, with list positions filled in ("spendLimit[0].value.amount"), or a
// whole date given as year, month and day fields ("dateOfBirth").
type target struct {
	// Path is the target as mappings write it.
	Path string
	// Field describes the value; for a whole date it is the year field.
	Field schema.Field
	// DateParts is set for a date filling an object of year, month and day.
	DateParts bool
	// tokens locate the value inside the element; keys[k] names the
	// container that tokens[k] opens, for reusing it (see scratch).
	tokens []string
	keys   []string
}

func newTarget(path string, f schema.Field, dateParts bool) target {
	t := target{Path: path, Field: f, DateParts: dateParts, tokens: elementTokens(path)}
	t.keys = make([]string, len(t.tokens))
	for k := range t.tokens {
		t.keys[k] = strings.Join(t.tokens[:k+1], "/")
	}
	return t
}

// Pointer returns the JSON pointer of the value inside the element, as
// schema.Problem.Pointer writes it.
func (t *target) Pointer() string {
	var b strings.Builder
	for _, tok := range t.tokens {
		b.WriteByte('/')
		b.WriteString(tok)
	}
	return b.String()
}

// maxListIndex bounds list positions in mapped paths.
const maxListIndex = 999

// catalog is what the fields of one kind offer for mapping.
type catalog struct {
	kind   *schema.Kind
	fields []schema.Field
	byPath map[string]int // Field.Path → index
	// dateParts lists objects made of year, month and day fields.
	dateParts map[string]int // object path → index of its year field
}

func newCatalog(k *schema.Kind, fields []schema.Field) *catalog {
	c := &catalog{kind: k, fields: fields, byPath: make(map[string]int), dateParts: make(map[string]int)}
	for i, f := range fields {
		c.byPath[f.Path] = i
	}
	for i, f := range fields {
		if obj, ok := strings.CutSuffix(f.Path, ".year"); ok {
			_, m := c.byPath[obj+".month"]
			_, d := c.byPath[obj+".day"]
			if m && d {
				c.dateParts[obj] = i
			}
		}
	}
	return c
}

// resolve turns a mapped path into a target.
func (c *catalog) resolve(path string) (target, error) {
	p := strings.TrimSpace(path)
	p = strings.TrimPrefix(p, "requestBody.")
	if i, ok := c.dateParts[p]; ok {
		return newTarget(p, c.fields[i], true), nil
	}
	generic, indexes, err := splitIndexes(p)
	if err != nil {
		return target{}, err
	}
	i, ok := c.byPath[generic]
	if !ok {
		// A scalar list may be filled item by item: "roles[1]".
		if base, ok2 := strings.CutSuffix(generic, "[]"); ok2 {
			if j, ok3 := c.byPath[base]; ok3 && c.fields[j].Type == "array" && len(indexes) > 0 {
				f := c.fields[j]
				f.Path, f.Type = p, f.ItemType
				return newTarget(p, f, false), nil
			}
		}
		return target{}, lang.Errorf("%s has no field %q", c.kind.ID, path)
	}
	if strings.Count(generic, "[]") != len(indexes) {
		return target{}, lang.Errorf("%q needs a list position such as %s", path, strings.Replace(generic, "[]", "[0]", 1))
	}
	return newTarget(p, c.fields[i], false), nil
}

// splitIndexes replaces "[3]" list positions by "[]" and returns them.
func splitIndexes(p string) (string, []int, error) {
	var b strings.Builder
	var idx []int
	for {
		open := strings.IndexByte(p, '[')
		if open < 0 {
			b.WriteString(p)
			return b.String(), idx, nil
		}
		end := strings.IndexByte(p[open:], ']')
		if end < 0 {
			return "", nil, lang.Errorf("%q has an unclosed '['", p)
		}
		inner := p[open+1 : open+end]
		b.WriteString(p[:open])
		b.WriteString("[]")
		if inner != "" {
			n, err := strconv.Atoi(inner)
			if err != nil || n < 0 || n > maxListIndex {
				return "", nil, lang.Errorf("%q has a bad list position [%s]", p, inner)
			}
			idx = append(idx, n)
		}
		p = p[open+end+1:]
	}
}

// elementTokens turns a field path into its location inside an element:
// path parameters under pathParams, everything else under requestBody.
func elementTokens(p string) []string {
	var toks []string
	if rest, ok := strings.CutPrefix(p, "pathParams."); ok {
		toks = []string{"pathParams"}
		p = rest
	} else {
		toks = []string{"requestBody"}
	}
	for _, part := range strings.Split(p, ".") {
		for {
			open := strings.IndexByte(part, '[')
			if open < 0 {
				break
			}
			end := strings.IndexByte(part, ']')
			if open > 0 {
				toks = append(toks, part[:open])
			}
			toks = append(toks, part[open+1:end])
			part = part[end+1:]
		}
		if part != "" {
			toks = append(toks, part)
		}
	}
	return toks
}

// isAmount reports whether a field is a sum of money in minor units.
func isAmount(f schema.Field) bool {
	if f.Type != "integer" {
		return false
	}
	last := f.Path[strings.LastIndexAny(f.Path, ".]")+1:]
	return last == "amount" || strings.HasSuffix(last, "Amount")
}

// currencyPath returns the path of the currency that goes with an amount
// target: its sibling "currency", when the kind has one.
func (c *catalog) currencyPath(t target) string {
	i := strings.LastIndexByte(t.Path, '.')
	if i < 0 {
		return ""
	}
	p := t.Path[:i] + ".currency"
	generic, _, err := splitIndexes(p)
	if err != nil {
		return ""
	}
	if _, ok := c.byPath[generic]; ok {
		return p
	}
	return ""
}
