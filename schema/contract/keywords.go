package contract

import (
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// kept are the keywords whose meaning is the same in OpenAPI and in JSON
// Schema 2020-12, and whose value is copied as it is.
var kept = map[string]bool{
	"enum": true, "const": true, "pattern": true, "format": true, "deprecated": true,
	"minLength": true, "maxLength": true, "minimum": true, "maximum": true, "multipleOf": true,
	"minItems": true, "maxItems": true, "uniqueItems": true, "minProperties": true, "maxProperties": true,
}

// subschema keywords hold one schema; list keywords a list of schemas.
var (
	subschema = map[string]bool{"not": true, "if": true, "then": true, "else": true, "additionalProperties": true}
	list      = map[string]bool{"prefixItems": true, "allOf": true, "anyOf": true, "oneOf": true}
)

// dropNotes say why an OpenAPI-only keyword goes; a validator of rows has
// no use for it.
var dropNotes = map[string]string{
	"examples":      "examples dropped: they do not constrain",
	"externalDocs":  "externalDocs dropped: documentation only",
	"xml":           "xml dropped: only JSON is submitted",
	"writeOnly":     "writeOnly dropped: every field of a request may be written",
	"discriminator": "discriminator dropped: oneOf still decides which schema applies",
	"readOnly":      "readOnly dropped: a property it marks is left out where it is used",
}

func (d *deriver) count(ptr string) error {
	*d.visits++
	if *d.visits > maxVisits {
		return d.fail(ptr, fmt.Sprintf("document too large to derive: over %d nodes visited (aliases?)", maxVisits))
	}
	return nil
}

// schema translates one schema object (or boolean schema) at ptr.
func (d *deriver) schema(n *yaml.Node, ptr string, depth int) (value, error) {
	if depth > maxDepth {
		return nil, d.fail(ptr, "nesting deeper than "+strconv.Itoa(maxDepth))
	}
	if err := d.count(ptr); err != nil {
		return nil, err
	}
	n = deref(n)
	switch {
	case n == nil:
		return nil, d.fail(ptr, "alias chain too long")
	case isBool(n):
		return d.value(n, ptr, depth)
	case n.Kind != yaml.MappingNode:
		return nil, d.fail(ptr, "a schema must be an object or a boolean")
	}
	if err := d.uniqueKeys(n, ptr); err != nil {
		return nil, err
	}

	// Read-only properties are never sent in a request: the row must not
	// carry them, so they leave both properties and required.
	readOnly := map[string]bool{}
	if props := deref(get(n, "properties")); props != nil && props.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(props.Content); i += 2 {
			name := props.Content[i].Value
			if at, ok := d.readOnly(props.Content[i+1], ptr+"/properties/"+escape(name)); ok {
				readOnly[name] = true
				d.note(at, dropped,
					fmt.Sprintf("property %q is read-only: dropped from properties and required", name))
			}
		}
	}
	nullable := isTrue(deref(get(n, "nullable")))
	exclMin := isTrue(deref(get(n, "exclusiveMinimum")))
	exclMax := isTrue(deref(get(n, "exclusiveMaximum")))

	out := &object{}
	put := func(k string, v value, p string) {
		if out.has(k) {
			d.note(p, notUnderstood, fmt.Sprintf("%q given twice after translation: the second not copied", k))
			return
		}
		out.set(k, v)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i].Value, n.Content[i+1]
		p := ptr + "/" + escape(k)
		var (
			v   value
			err error
		)
		switch {
		case k == "type":
			if v, err = d.value(val, p, depth+1); err == nil {
				if nullable {
					v = addNull(v)
				}
				put(k, v, p)
			}
		case k == "nullable":
			t := deref(val)
			switch {
			case !isBool(t):
				d.note(p, notUnderstood, "nullable is not a boolean: not copied")
			case !isTrue(t):
				d.note(p, dropped, "nullable: false dropped: it is the default")
			case get(n, "type") == nil:
				d.note(p, dropped, "nullable: true dropped: there is no type to add \"null\" to, so null is allowed already")
			default:
				d.note(p, translated, "nullable: true became \"null\" in type")
			}
		case k == "properties":
			v, err = d.properties(val, p, depth, readOnly)
			if err == nil {
				put(k, v, p)
			}
		case k == "required":
			v, err = d.required(val, p, depth, readOnly)
			if err == nil {
				put(k, v, p)
			}
		case k == "items":
			if t := deref(val); t != nil && t.Kind == yaml.SequenceNode {
				d.note(p, translated, "items given as a list became prefixItems")
				if v, err = d.schemas(val, p, depth); err == nil {
					put("prefixItems", v, p)
				}
			} else if v, err = d.schema(val, p, depth+1); err == nil {
				put(k, v, p)
			}
		case list[k]:
			if v, err = d.schemas(val, p, depth); err == nil {
				put(k, v, p)
			}
		case subschema[k]:
			if v, err = d.schema(val, p, depth+1); err == nil {
				put(k, v, p)
			}
		case k == "minimum" && exclMin, k == "maximum" && exclMax:
			if v, err = d.value(val, p, depth+1); err == nil {
				put("exclusiveM"+k[1:], v, p)
			}
		case k == "exclusiveMinimum" || k == "exclusiveMaximum":
			t := deref(val)
			bound := "m" + k[10:]
			switch {
			case !isBool(t):
				if v, err = d.value(val, p, depth+1); err == nil {
					put(k, v, p)
				}
			case !isTrue(t):
				d.note(p, dropped, k+": false dropped: it is the default")
			case get(n, bound) == nil:
				d.note(p, dropped, k+": true dropped: there is no "+bound+" to make exclusive")
			default:
				d.note(p, translated, fmt.Sprintf("%s: true with %s became %s: the bound", k, bound, k))
			}
		case kept[k]:
			if v, err = d.value(val, p, depth+1); err == nil {
				put(k, v, p)
			}
		case k == "$ref":
			r, ok := scalar(deref(val))
			if !ok {
				return nil, d.fail(p, "$ref is not a string")
			}
			var to string
			if to, err = d.ref(r, p); err == nil {
				put(k, str(to), p)
			}
		case k == "example":
			if d.examples == 0 {
				d.firstExample = p
			}
			d.examples++
		case k == "title" || k == "description":
			if d.o.KeepDescriptions {
				if v, err = d.value(val, p, depth+1); err == nil {
					put(k, v, p)
				}
			}
		case k == "summary":
		case k == "default":
			if d.o.KeepDescriptions {
				d.note(p, dropped, "default dropped: a row gets no value it does not carry")
			}
		case dropNotes[k] != "":
			d.note(p, dropped, dropNotes[k])
		case strings.HasPrefix(k, "x-"):
			d.note(p, dropped, "extension "+k+" dropped")
		default:
			d.note(p, notUnderstood, fmt.Sprintf("keyword %q not copied", k))
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readOnly tells whether a property is read-only, and where that is said:
// by its own keyword, or by that of the component it refers to, as a 3.1
// $ref with siblings would have it.
func (d *deriver) readOnly(prop *yaml.Node, ptr string) (string, bool) {
	prop = deref(prop)
	if isTrue(deref(get(prop, "readOnly"))) {
		return ptr + "/readOnly", true
	}
	r, ok := scalar(deref(get(prop, "$ref")))
	if !ok || !strings.HasPrefix(r, "#/") {
		return "", false
	}
	if isTrue(deref(get(lookup(d.root, r[1:]), "readOnly"))) {
		return r[1:] + "/readOnly", true
	}
	return "", false
}

// addNull adds "null" to a type, making it a list.
func addNull(v value) value {
	switch t := v.(type) {
	case str:
		if t == "null" {
			return t
		}
		return array{t, str("null")}
	case array:
		for _, e := range t {
			if e == str("null") {
				return t
			}
		}
		return append(append(array{}, t...), str("null"))
	}
	return v
}

func (d *deriver) uniqueKeys(n *yaml.Node, ptr string) error {
	seen := make(map[string]bool, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind != yaml.ScalarNode {
			return d.fail(ptr, fmt.Sprintf("line %d: a key must be a string", k.Line))
		}
		if seen[k.Value] {
			return d.fail(ptr+"/"+escape(k.Value), fmt.Sprintf("line %d: key given twice", k.Line))
		}
		seen[k.Value] = true
	}
	return nil
}

// properties translates a properties map; its keys are names, not keywords.
func (d *deriver) properties(n *yaml.Node, ptr string, depth int, readOnly map[string]bool) (value, error) {
	n = deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, d.fail(ptr, "properties must be a map of schemas")
	}
	if err := d.uniqueKeys(n, ptr); err != nil {
		return nil, err
	}
	out := &object{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		name := n.Content[i].Value
		if readOnly[name] {
			continue
		}
		v, err := d.schema(n.Content[i+1], ptr+"/"+escape(name), depth+2)
		if err != nil {
			return nil, err
		}
		out.set(name, v)
	}
	return out, nil
}

func (d *deriver) required(n *yaml.Node, ptr string, depth int, readOnly map[string]bool) (value, error) {
	n = deref(n)
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil, d.fail(ptr, "required must be a list of names")
	}
	out := array{}
	for i, e := range n.Content {
		name, ok := scalar(deref(e))
		if !ok {
			return nil, d.fail(ptr+"/"+strconv.Itoa(i), "required must be a list of names")
		}
		if !readOnly[name] {
			out = append(out, str(name))
		}
	}
	return out, nil
}

// schemas translates a list of schemas.
func (d *deriver) schemas(n *yaml.Node, ptr string, depth int) (value, error) {
	n = deref(n)
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil, d.fail(ptr, "must be a list of schemas")
	}
	out := array{}
	for i, e := range n.Content {
		v, err := d.schema(e, ptr+"/"+strconv.Itoa(i), depth+2)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// value copies any YAML value as JSON.
func (d *deriver) value(n *yaml.Node, ptr string, depth int) (value, error) {
	if depth > maxDepth {
		return nil, d.fail(ptr, "nesting deeper than "+strconv.Itoa(maxDepth))
	}
	if err := d.count(ptr); err != nil {
		return nil, err
	}
	n = deref(n)
	if n == nil {
		return nil, d.fail(ptr, "alias chain too long")
	}
	switch n.Kind {
	case yaml.MappingNode:
		if err := d.uniqueKeys(n, ptr); err != nil {
			return nil, err
		}
		out := &object{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			v, err := d.value(n.Content[i+1], ptr+"/"+escape(k), depth+1)
			if err != nil {
				return nil, err
			}
			out.set(k, v)
		}
		return out, nil
	case yaml.SequenceNode:
		out := array{}
		for i, e := range n.Content {
			v, err := d.value(e, ptr+"/"+strconv.Itoa(i), depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return raw("null"), nil
		case "!!bool":
			b, err := strconv.ParseBool(n.Value)
			if err != nil {
				return nil, d.fail(ptr, fmt.Sprintf("not understood: boolean %q", n.Value))
			}
			return raw(strconv.FormatBool(b)), nil
		case "!!int", "!!float":
			if r, ok := number(n.Value, n.ShortTag() == "!!int"); ok {
				return r, nil
			}
			return nil, d.fail(ptr, fmt.Sprintf("not understood: number %q has no JSON form", n.Value))
		}
		return str(n.Value), nil
	}
	return nil, d.fail(ptr, "not understood: YAML node")
}
