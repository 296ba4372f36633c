package contract

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Target is one bulk kind to derive: its id and its submission operation.
type Target struct{ Kind, Method, Path string }

// Options change what Derive keeps.
type Options struct {
	// KeepDescriptions keeps "title" and "description" (for a contract
	// loaded at run time, whose new fields have no words of ours). Off,
	// they are dropped.
	KeepDescriptions bool
}

// Contract is what Derive found in one document.
type Contract struct {
	Source         string   // the file name as given
	OpenAPI        string   // the document's "openapi" version, e.g. "3.1.0"
	Title, Version string   // info.title, info.version
	Schemas        []Schema // in the order of targets, those found
	Missing        []Target // targets the document has no operation for
	Notes          []Note
}

// Schema is the derived schema of one element of a bulk kind's request.
type Schema struct {
	Kind     string
	Endpoint string // "POST /bulks/transfers"
	JSON     []byte // the element schema, indented 2 spaces, ending in "\n"
}

// Note records a keyword translated, dropped, or not understood, and where.
type Note struct {
	Kind   string // the bulk kind whose schema it concerns
	Place  string // JSON pointer into the source document, e.g. "/components/schemas/Foo/nullable"
	Action string // "translated", "dropped" or "not understood"
	Text   string // what was done, in plain words
}

const (
	translated    = "translated"
	dropped       = "dropped"
	notUnderstood = "not understood"
)

// Derive reads an OpenAPI 3.x document and derives the element schema of
// each target found in it. A problem with the document is an *Error.
func Derive(source string, data []byte, targets []Target, o Options) (*Contract, error) {
	root, err := parse(source, data)
	if err != nil {
		return nil, err
	}
	c := &Contract{Source: source}
	v, ok := scalar(deref(get(root, "openapi")))
	switch {
	case get(root, "openapi") == nil:
		return nil, &Error{File: source, Msg: `not an OpenAPI 3.x document: no "openapi" version`}
	case !ok || !strings.HasPrefix(v, "3."):
		return nil, &Error{File: source, Place: "/openapi", Msg: fmt.Sprintf("not an OpenAPI 3.x document: version %q", v)}
	}
	c.OpenAPI = v
	info := deref(get(root, "info"))
	c.Title, _ = scalar(deref(get(info, "title")))
	c.Version, _ = scalar(deref(get(info, "version")))

	visits := 0
	paths := deref(get(root, "paths"))
	for _, t := range targets {
		method := strings.ToLower(t.Method)
		op := deref(get(deref(get(paths, t.Path)), method))
		if op == nil {
			c.Missing = append(c.Missing, t)
			continue
		}
		d := &deriver{
			source: source, root: root, o: o, kind: t.Kind, visits: &visits,
			defs: map[string]*def{}, names: map[string]string{},
		}
		endpoint := strings.ToUpper(t.Method) + " " + t.Path
		items, ptr, err := d.items(op, "/paths/"+escape(t.Path)+"/"+escape(method))
		if err != nil {
			return nil, err
		}
		js, err := d.element(items, ptr, "Derived from "+c.name()+": "+endpoint)
		if err != nil {
			return nil, err
		}
		c.Schemas = append(c.Schemas, Schema{Kind: t.Kind, Endpoint: endpoint, JSON: js})
		c.Notes = append(c.Notes, d.notes...)
	}
	if len(c.Schemas) == 0 {
		var looked []string
		for _, t := range targets {
			looked = append(looked, strings.ToUpper(t.Method)+" "+t.Path)
		}
		return nil, &Error{File: source, Place: "/paths", Msg: "no bulk operations: looked for " + strings.Join(looked, ", ")}
	}
	return c, nil
}

// name is how the output names the contract: its title and version, or
// the file when the document gives neither.
func (c *Contract) name() string {
	if n := strings.TrimSpace(c.Title + " " + c.Version); n != "" {
		return n
	}
	return c.Source
}

// deriver holds the state of deriving one kind's schema.
type deriver struct {
	source string
	root   *yaml.Node
	o      Options
	kind   string
	notes  []Note
	visits *int // shared by all kinds: the bound is on the whole call

	defs  map[string]*def   // by source pointer
	order []*def            // in the order first referenced
	names map[string]string // $defs name → source pointer

	examples     int
	firstExample string
}

// def is one component copied under $defs.
type def struct {
	name, ptr string
	node      *yaml.Node
}

func (d *deriver) note(place, action, text string) {
	d.notes = append(d.notes, Note{Kind: d.kind, Place: place, Action: action, Text: text})
}

func (d *deriver) fail(place, msg string) error {
	return &Error{File: d.source, Place: place, Msg: msg}
}

// items finds the items schema of the operation's application/json array
// request body, following local references on the way.
func (d *deriver) items(op *yaml.Node, ptr string) (*yaml.Node, string, error) {
	const want = "operation has no application/json array body with items"
	n, p, err := d.follow(get(op, "requestBody"), ptr+"/requestBody")
	if err != nil || n == nil {
		return nil, "", orFail(err, d.fail(ptr, want))
	}
	content := deref(get(n, "content"))
	p += "/content"
	var media *yaml.Node
	if content != nil && content.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(content.Content); i += 2 {
			mt := strings.TrimSpace(strings.SplitN(content.Content[i].Value, ";", 2)[0])
			if strings.EqualFold(mt, "application/json") {
				media = deref(content.Content[i+1])
				p += "/" + escape(content.Content[i].Value)
				break
			}
		}
	}
	if media == nil {
		return nil, "", d.fail(ptr+"/requestBody", want)
	}
	s, p, err := d.follow(get(media, "schema"), p+"/schema")
	if err != nil || s == nil {
		return nil, "", orFail(err, d.fail(p, want))
	}
	if typ := deref(get(s, "type")); typ != nil && !hasType(typ, "array") {
		return nil, "", d.fail(p+"/type", want)
	}
	items := get(s, "items")
	if items == nil {
		return nil, "", d.fail(p, want)
	}
	return items, p + "/items", nil
}

func orFail(err, otherwise error) error {
	if err != nil {
		return err
	}
	return otherwise
}

func hasType(typ *yaml.Node, t string) bool {
	if typ.Kind == yaml.ScalarNode {
		return typ.Value == t
	}
	for _, e := range typ.Content {
		if deref(e) != nil && deref(e).Value == t {
			return true
		}
	}
	return false
}

// follow resolves n while it is a mapping holding only a local $ref, as a
// request body or media schema may be, and returns the node and its place.
func (d *deriver) follow(n *yaml.Node, ptr string) (*yaml.Node, string, error) {
	for i := 0; ; i++ {
		n = deref(n)
		r, ok := scalar(deref(get(n, "$ref")))
		if n == nil || !ok {
			return n, ptr, nil
		}
		if i >= maxDepth {
			return nil, "", d.fail(ptr+"/$ref", "references nested deeper than "+strconv.Itoa(maxDepth))
		}
		frag, err := d.fragment(r, ptr+"/$ref")
		if err != nil {
			return nil, "", err
		}
		target := lookup(d.root, frag)
		if target == nil {
			return nil, "", d.fail(ptr+"/$ref", fmt.Sprintf("broken $ref %q: nothing there", r))
		}
		n, ptr = target, frag
	}
}

// fragment checks that ref is local and returns its JSON pointer.
func (d *deriver) fragment(ref, at string) (string, error) {
	if !strings.HasPrefix(ref, "#") {
		return "", d.fail(at, fmt.Sprintf("not understood: external reference %q", ref))
	}
	frag, err := url.PathUnescape(ref[1:])
	if err != nil {
		return "", d.fail(at, fmt.Sprintf("not understood: reference %q: %v", ref, err))
	}
	return frag, nil
}

// ref rewrites a schema's $ref to point into $defs, queueing the component
// it reaches. Components stay references, so cycles among them are fine.
func (d *deriver) ref(r, at string) (string, error) {
	frag, err := d.fragment(r, at)
	if err != nil {
		return "", err
	}
	segs := strings.Split(frag, "/")
	if len(segs) < 4 || segs[0] != "" || segs[1] != "components" || segs[3] == "" {
		return "", d.fail(at, fmt.Sprintf("not understood: reference %q is not to a component", r))
	}
	if lookup(d.root, frag) == nil {
		return "", d.fail(at, fmt.Sprintf("broken $ref %q: no such component", r))
	}
	// A schema component is copied whole and the rest of the pointer kept;
	// anything referenced in another section is copied as the schema it
	// must be, under its last name.
	defPtr, rest := strings.Join(segs[:4], "/"), segs[4:]
	if segs[2] != "schemas" {
		defPtr, rest = frag, nil
	}
	name := unescape(segs[len(segs)-len(rest)-1])
	if _, ok := d.defs[defPtr]; !ok {
		if other, taken := d.names[name]; taken {
			return "", d.fail(at, fmt.Sprintf("not understood: %q and %q would both be $defs/%s", other, defPtr, name))
		}
		df := &def{name: name, ptr: defPtr, node: lookup(d.root, defPtr)}
		d.defs[defPtr], d.names[name] = df, defPtr
		d.order = append(d.order, df)
	}
	out := "#/$defs/" + escape(name)
	for _, s := range rest {
		out += "/" + s
	}
	return out, nil
}

// element builds the whole output schema: header, the items schema's
// keywords, then every component reached, in the order first referenced.
// That order depends only on what is derived, not on where the document
// happens to list its components, so two contracts sharing a schema give
// the same bytes.
func (d *deriver) element(items *yaml.Node, ptr, comment string) ([]byte, error) {
	top := &object{}
	top.set("$schema", str("https://json-schema.org/draft/2020-12/schema"))
	top.set("$id", str("https://bulkdesk.invalid/schema/"+d.kind+".json"))
	top.set("$comment", str(comment))
	v, err := d.schema(items, ptr, 1)
	if err != nil {
		return nil, err
	}
	switch v := v.(type) {
	case *object:
		for i, k := range v.keys {
			top.set(k, v.vals[i])
		}
	case raw:
		if v == "false" {
			top.set("not", &object{})
		}
	}
	defs := &object{}
	for i := 0; i < len(d.order); i++ {
		df := d.order[i]
		v, err := d.schema(df.node, df.ptr, 1)
		if err != nil {
			return nil, err
		}
		defs.set(df.name, v)
	}
	if len(defs.keys) > 0 {
		top.set("$defs", defs)
	}
	if d.examples > 0 {
		text := "1 example dropped"
		if d.examples > 1 {
			text = strconv.Itoa(d.examples) + " examples dropped"
		}
		d.note(d.firstExample, dropped, text)
	}
	return encode(top), nil
}
