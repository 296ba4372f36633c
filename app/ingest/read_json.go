package ingest

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/schema"
)

// jsonFile is a JSON file: either a request body (elements of
// {pathParams, requestBody}) or an array of flat objects, one per row.
// A request body that is an array is kept as its bytes (elements, see
// RequestElements); anything else is decoded (doc).
type jsonFile struct {
	doc      any
	elements *RequestElements
	dups     []string
	request  bool
	// order is the key order of the first object.
	order []string
}

func (f *File) openJSON(data []byte) (*File, error) {
	f.Format = JSON
	// An array of more values than the row limit is refused before it is
	// decoded, which would take about ten times its size: an array of
	// flat objects is a table of that many rows, and a request body that
	// many operations, which no more fit the documented limit.
	shape := scanJSON(data)
	if shape.topCommas >= f.limits.MaxRows { // n commas separate n+1 values
		if keys := firstObjectKeys(data); len(keys) > 0 && !slices.Contains(keys, "pathParams") && !slices.Contains(keys, "requestBody") {
			return nil, f.tooManyRows("", f.w.F("the file has more than %s objects (rows)", f.w.Count(f.limits.MaxRows)))
		}
		w := f.w
		return nil, f.readError("", w.F("the request body holds more than %s elements; at most %s operations can be read from one file: split it into files of at most %s elements each (a bulk takes %s)",
			w.Count(f.limits.MaxRows), w.Count(f.limits.MaxRows), w.Count(f.limits.MaxRows), w.Count(schema.MaxElements)), nil)
	}
	if est := shape.decodedSize(); est > maxDecodedBytes {
		return nil, f.readError("", f.w.F("the file holds too many values to be read: decoded, they would take about %s of memory, and at most %s can be read (a request body of 100 MB of transfers takes about 700 MB): split it into smaller files",
			sizeText(f.w, est), sizeText(f.w, maxDecodedBytes)), nil)
	}
	if body, ok := schema.ReadBody(data); ok && body.RequestShaped() {
		// Read once, decoded by no one: each element is checked from its
		// bytes and decoded when someone needs its value.
		f.json = &jsonFile{elements: &RequestElements{body: body}, dups: body.Dups(), request: true}
		return f, nil
	}
	doc, dups, err := schema.DecodeJSON(data)
	if err != nil {
		return nil, f.readError("", f.w.F("not valid JSON: %s", err), err)
	}
	f.json = &jsonFile{doc: doc, dups: dups, request: isRequestBody(doc)}
	if !f.json.request {
		f.json.order = firstObjectKeys(data)
	}
	return f, nil
}

// isRequestBody reports whether a JSON document is to be validated as it
// is rather than read as a table: anything but a non-empty array of
// objects none of which looks like a request element.
func isRequestBody(doc any) bool {
	arr, ok := doc.([]any)
	if !ok || len(arr) == 0 {
		return true
	}
	for _, item := range arr {
		obj, ok := item.(map[string]any)
		if !ok {
			return true
		}
		_, p := obj["pathParams"]
		_, b := obj["requestBody"]
		if p || b {
			return true
		}
	}
	return false
}

// IsRequest reports whether the file is a JSON request body, whose
// elements need no mapping: see Request.
func (f *File) IsRequest() bool { return f.json != nil && f.json.request }

// Request returns the document of a JSON request body file, every
// element decoded and as edited, and the pointers of keys it repeats,
// for schema.Validator.ValidateRequest. A caller that can take them one
// at a time uses RequestElements instead.
func (f *File) Request() (doc any, dups []string, ok bool) {
	if !f.IsRequest() {
		return nil, nil, false
	}
	if els := f.json.elements; els != nil {
		list := make([]any, els.Len())
		for i := range list {
			list[i] = els.At(i)
		}
		return list, f.json.dups, true
	}
	return f.json.doc, f.json.dups, true
}

// RequestElements returns the elements of a JSON request body file that
// is an array, kept as the file's bytes; the same each time, so that
// what is changed in them stays changed.
func (f *File) RequestElements() (*RequestElements, bool) {
	if !f.IsRequest() || f.json.elements == nil {
		return nil, false
	}
	return f.json.elements, true
}

// jsonTable turns an array of flat objects into a table whose first row
// holds the keys, in the order they first appear.
func (f *File) jsonTable() (*Table, error) {
	arr := f.json.doc.([]any)
	if len(arr) > f.limits.MaxRows {
		return nil, f.tooManyRows("", f.w.F("the file has more than %s objects (rows)", f.w.Count(f.limits.MaxRows)))
	}
	t := &Table{File: f.Name, Format: JSON, Formats: []string{""}, Keyed: true, w: f.w}
	col := make(map[string]int)
	for _, item := range arr {
		for k := range item.(map[string]any) {
			if _, ok := col[k]; !ok {
				col[k] = -1
			}
		}
	}
	// The first object's keys in their written order, then any others
	// sorted: decoded objects have lost their order.
	for _, k := range f.json.order {
		if col[k] == -1 {
			col[k] = len(t.keys)
			t.keys = append(t.keys, k)
		}
	}
	for _, k := range sortedKeys(col) {
		if col[k] == -1 {
			col[k] = len(t.keys)
			t.keys = append(t.keys, k)
		}
	}
	t.Rows = make([]Row, 0, len(arr)+1)
	var blocks cellBlocks
	blocks.expect(len(t.keys) * (len(arr) + 1))
	header := Row{Number: 0, Cells: blocks.take(len(t.keys))}
	for i, k := range t.keys {
		header.Cells[i] = Cell{Kind: Text, Value: k}
	}
	t.Rows = append(t.Rows, header)
	for n, item := range arr {
		cells := blocks.take(len(t.keys))
		for k, v := range item.(map[string]any) {
			c, err := jsonCell(v)
			if err != nil {
				e := f.readError("", f.w.Say(err), err)
				e.Row, e.Column = n+1, k
				return nil, e
			}
			cells[col[k]] = c
		}
		t.Rows = append(t.Rows, Row{Number: n + 1, Cells: cells})
	}
	return t, nil
}

func jsonCell(v any) (Cell, error) {
	switch x := v.(type) {
	case nil:
		return Cell{}, nil
	case string:
		if x == "" {
			return Cell{}, nil
		}
		return Cell{Kind: Text, Value: x}, nil
	case json.Number:
		return Cell{Kind: Number, Value: string(x)}, nil
	case bool:
		if x {
			return Cell{Kind: Bool, Value: "TRUE"}, nil
		}
		return Cell{Kind: Bool, Value: "FALSE"}, nil
	case []any:
		// A list of plain values, for list fields: written as a delimited
		// cell, which the coercion splits again.
		parts := make([]string, 0, len(x))
		for _, item := range x {
			c, err := jsonCell(item)
			if err != nil {
				return Cell{}, err
			}
			if _, nested := item.([]any); nested || strings.ContainsAny(c.Value, ",;\n") {
				return Cell{}, lang.Errorf("a list may hold only plain values without commas or semicolons")
			}
			parts = append(parts, c.Value)
		}
		return Cell{Kind: Text, Value: strings.Join(parts, ", ")}, nil
	case map[string]any:
		return Cell{}, lang.Errorf("the value is an object: write its fields as keys with dotted names (%s), or give the file as a request body", "destinationAmount.amount")
	}
	return Cell{}, lang.Errorf("unexpected value %v", v)
}

// MemoryLimit is the heap size past which a program reading files within
// DefaultLimits should have the collector work harder rather than let the
// heap double (debug.SetMemoryLimit): such a file holds at most about
// 650 MiB of live values (a 100 MB request body decoded), and the
// collector's usual headroom would take that well over 1 GB.
const MemoryLimit = 768 << 20

// maxDecodedBytes bounds the memory a decoded JSON file may take, as
// decodedSize estimates it: enough for a 100 MiB request body of
// transfers, while a file of as many bytes of tiny values ("[0,0,…]",
// "[{},{},…]"), which decodes to ten or twenty times its size and more
// problems still, is refused before it is decoded.
const maxDecodedBytes = 768 << 20

// jsonShape is what one pass over a JSON file's bytes, without decoding
// them, tells of the values it holds.
type jsonShape struct {
	objects, arrays, commas int64
	// topCommas counts the commas between the values of a top-level
	// array; 0 for any other document. Malformed JSON gives some count,
	// and DecodeJSON the error.
	topCommas int
}

// scanJSON reads data once, outside its strings.
func scanJSON(data []byte) jsonShape {
	var sh jsonShape
	rest := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\n\r")
	top := len(rest) > 0 && rest[0] == '['
	depth := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			// Skip the string at once: its closing quote is the first one
			// after an even number of backslashes.
			for {
				k := bytes.IndexByte(data[i+1:], '"')
				if k < 0 {
					i = len(data)
					break
				}
				i += 1 + k
				slashes := 0
				for data[i-1-slashes] == '\\' {
					slashes++
				}
				if slashes%2 == 0 {
					break
				}
			}
		case '{':
			sh.objects++
			depth++
		case '[':
			sh.arrays++
			depth++
		case ']', '}':
			depth--
			if depth == 0 {
				top = false // what follows the array is not in it
			}
		case ',':
			sh.commas++
			if top && depth == 1 {
				sh.topCommas++
			}
		}
	}
	return sh
}

// decodedSize estimates what schema.DecodeJSON's tree of the data takes:
// a Go map per object (about 340 bytes for up to eight keys), a slice per
// array, and a boxed value per scalar, which the commas count.
func (sh jsonShape) decodedSize() int64 {
	return 340*sh.objects + 48*sh.arrays + 32*(sh.commas+1)
}

// firstObjectKeys returns the keys of the first object of a JSON array in
// the order they are written.
func firstObjectKeys(data []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))))
	var keys []string
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return keys
		}
		if depth == 1 && tok != json.Delim('{') {
			// The first value is not an object: there are no keys to
			// read, and reading on would walk the whole file.
			return keys
		}
		switch tok {
		case json.Delim('['), json.Delim('{'):
			depth++
			continue
		case json.Delim(']'), json.Delim('}'):
			depth--
			if depth == 1 {
				return keys
			}
			continue
		}
		if k, ok := tok.(string); ok && depth == 2 && dec.More() {
			keys = append(keys, k)
			// Skip the value.
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return keys
			}
		}
	}
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
