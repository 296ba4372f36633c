package submission

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/schema"
)

// FingerprintSize is how many bytes of an element's SHA-256 are kept: 128
// bits, so that a million recorded elements collide by chance with a
// probability of about 10⁻²⁷.
const FingerprintSize = 16

// A Fingerprint identifies what one element asks the API to do, whatever
// bulk, chunk or file carries it: the same element in two bulks has the
// same fingerprint.
type Fingerprint [FingerprintSize]byte

// fingerprintVersion is part of every fingerprint, so that a change to
// what it covers can never make old and new ones collide.
const fingerprintVersion = "bulkdesk-element/1"

// The fingerprint covers what both sides of the comparison hold: the
// operator's element ({"pathParams": {...}, "requestBody": {...}}) and the
// API's record of the operation it became. The contract gives each
// operation a method, a path and a requestPayload, the payload of the
// single operation: the element's requestBody, without its pathParams,
// which the operation's path carries instead (the sandbox fills the
// kind's path parameter in, as in "/managed_cards/123/block"). So the
// fingerprint is the SHA-256 of
//
//	bulkdesk-element/1 \n kind \n single operation \n path parameter \n canonical requestBody
//
// where the kind and its single operation ("POST /transfers") say what is
// done, the path parameter is the value of the kind's pathParams key ("",
// for kinds without one) and the requestBody is written by the same
// canonical encoder as the bodies sent (see schema.AppendCanonical): keys sorted,
// compact, numbers as written. A missing, null or empty requestBody is
// written as nothing, since an operation's payload cannot tell them apart.
// The submission endpoint (standard or back-office) is left out: the same
// transfer submitted through either API is paid twice all the same.

// fingerprinter computes fingerprints with reused buffers; not safe for
// concurrent use.
type fingerprinter struct {
	h   hash.Hash
	buf []byte
	sum []byte
	// kind and head are the last kind fingerprinted and its header.
	kind *schema.Kind
	head []byte
}

func newFingerprinter() *fingerprinter {
	return &fingerprinter{h: sha256.New(), buf: make([]byte, 0, 512), sum: make([]byte, 0, sha256.Size)}
}

// element returns the fingerprint of a decoded element of kind k.
func (f *fingerprinter) element(k *schema.Kind, el any) (Fingerprint, error) {
	return f.canonicalElement(k, el, nil)
}

// canonicalElement returns the fingerprint of a decoded element of kind k
// whose canonical JSON, when not nil, is canon: its requestBody is then
// found there rather than written again.
func (f *fingerprinter) canonicalElement(k *schema.Kind, el any, canon []byte) (Fingerprint, error) {
	obj, ok := el.(map[string]any)
	if !ok {
		// Not an element the API would take; fingerprint it whole, so
		// that it matches only itself.
		var err error
		if f.buf, err = schema.AppendCanonical(f.buf[:0], el); err != nil {
			return Fingerprint{}, err
		}
		return f.sumOf(k, "\x00whole", f.buf), nil
	}
	param := ""
	if k.PathParam != "" {
		if params, ok := obj["pathParams"].(map[string]any); ok {
			switch v := params[k.PathParam].(type) {
			case string:
				param = v
			case nil:
			default:
				b, err := schema.AppendCanonical(nil, v)
				if err != nil {
					return Fingerprint{}, err
				}
				param = string(b)
			}
		}
	}
	rb := obj["requestBody"]
	if m, isMap := rb.(map[string]any); canon != nil && isMap && len(m) > 0 {
		// The canonical element ends with the requestBody when it is its
		// last key, as it is in every element the schemas allow
		// ("pathParams" < "requestBody").
		if body, ok := lastValue(canon, "requestBody"); ok {
			return f.sumOf(k, param, body), nil
		}
	}
	body, err := f.body(rb)
	if err != nil {
		return Fingerprint{}, err
	}
	return f.sumOf(k, param, body), nil
}

// lastValue returns the value of key in a canonical object whose last key
// it is: `{...,"key":VALUE}`. It finds the key from the end, by the
// canonical form's own rules: the value of the last key is an object, so
// the match is confirmed by the byte before `"key":` being '{' or ','
// outside any string, which holds when the object has no key sorting after
// key.
func lastValue(canon []byte, key string) ([]byte, bool) {
	marker := `"` + key + `":`
	// The value is an object: find where it starts by matching braces
	// from the end.
	if len(canon) < 2 || canon[len(canon)-1] != '}' || canon[len(canon)-2] != '}' {
		return nil, false
	}
	end := len(canon) - 1 // the element's closing brace
	depth, inString := 0, false
	for i := end - 1; i >= 0; i-- {
		c := canon[i]
		if inString {
			if c == '"' && !escaped(canon, i) {
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '}', ']':
			depth++
		case '{', '[':
			depth--
			if depth == 0 {
				start := i - len(marker)
				if start < 1 || string(canon[start:i]) != marker || canon[start-1] != '{' && canon[start-1] != ',' {
					return nil, false
				}
				return canon[i:end], true
			}
		}
	}
	return nil, false
}

// escaped reports whether the quote at i is escaped: preceded by an odd
// number of backslashes.
func escaped(b []byte, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && b[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// body writes a requestBody canonically into f.buf; nothing for a missing,
// null or empty one.
func (f *fingerprinter) body(v any) ([]byte, error) {
	if m, ok := v.(map[string]any); v == nil || ok && len(m) == 0 {
		return f.buf[:0], nil
	}
	var err error
	f.buf, err = schema.AppendCanonical(f.buf[:0], v)
	return f.buf, err
}

func (f *fingerprinter) sumOf(k *schema.Kind, param string, body []byte) Fingerprint {
	if f.kind != k {
		f.kind, f.head = k, []byte(fingerprintVersion+"\n"+k.ID+"\n"+k.Operation.String()+"\n")
	}
	f.h.Reset()
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(param)))
	f.h.Write(f.head)
	f.h.Write(n[:])
	f.h.Write([]byte(param))
	f.h.Write([]byte{'\n'})
	f.h.Write(body)
	f.sum = f.h.Sum(f.sum[:0])
	var fp Fingerprint
	copy(fp[:], f.sum)
	return fp
}

// ElementFingerprint returns the fingerprint of a decoded element (as
// schema.DecodeJSON gives it) of kind k.
func ElementFingerprint(k *schema.Kind, element any) (Fingerprint, error) {
	return newFingerprinter().element(k, element)
}

// OperationFingerprint returns the fingerprint of an operation of a bulk of
// kind k, from its path and requestPayload: equal to the fingerprint of the
// element that made it. ok is false when the operation cannot be
// fingerprinted (its path is not the kind's, or its payload is not JSON).
func OperationFingerprint(k *schema.Kind, op *bulkapi.Operation) (fp Fingerprint, ok bool) {
	return newFingerprinter().operation(k, op)
}

func (f *fingerprinter) operation(k *schema.Kind, op *bulkapi.Operation) (Fingerprint, bool) {
	param, ok := pathParam(k, op.Method, op.Path)
	if !ok {
		return Fingerprint{}, false
	}
	var v any
	if p := strings.TrimSpace(op.RequestPayload); p != "" {
		var err error
		if v, _, err = schema.DecodeJSON([]byte(p)); err != nil {
			return Fingerprint{}, false
		}
	}
	body, err := f.body(v)
	if err != nil {
		return Fingerprint{}, false
	}
	return f.sumOf(k, param, body), true
}

// pathParam matches an operation's method and path with the kind's single
// operation, and returns the value of its path parameter ("" for a kind
// without one). A path that does not say the value (still a template, or
// empty) does not match a kind with a parameter: its operations then
// match nothing, rather than every operation of that kind.
func pathParam(k *schema.Kind, method, path string) (string, bool) {
	if method != "" && !strings.EqualFold(method, k.Operation.Method) {
		return "", false
	}
	if path == "" {
		return "", k.PathParam == ""
	}
	want := strings.Split(strings.Trim(k.Operation.Path, "/"), "/")
	got := strings.Split(strings.Trim(path, "/"), "/")
	// The path may carry the API's base path in front.
	if len(got) < len(want) {
		return "", false
	}
	got = got[len(got)-len(want):]
	param := ""
	for i, w := range want {
		if strings.HasPrefix(w, "{") {
			if g := got[i]; g == "" || strings.HasPrefix(g, "{") || strings.HasPrefix(g, "_") {
				return "", false
			} else {
				param = g
			}
			continue
		}
		if got[i] != w {
			return "", false
		}
	}
	return param, true
}

// KindOfOperation returns the kind whose single operation a bulk's
// operation names, such as "POST /transfers" or
// "POST /managed_cards/{id}/block".
func KindOfOperation(op string) (*schema.Kind, bool) {
	op = strings.TrimSpace(op)
	if op == "" {
		return nil, false
	}
	method, path, found := strings.Cut(op, " ")
	if !found {
		method, path = "", op
	}
	path = strings.TrimSpace(path)
	for _, k := range schema.Kinds() {
		if method != "" && !strings.EqualFold(method, k.Operation.Method) {
			continue
		}
		if sameTemplate(k.Operation.Path, path) {
			return k, true
		}
	}
	return nil, false
}

// sameTemplate compares paths segment by segment, any parameter ({id},
// _id_, or a value) matching a parameter of the template.
func sameTemplate(template, path string) bool {
	want := strings.Split(strings.Trim(template, "/"), "/")
	got := strings.Split(strings.Trim(path, "/"), "/")
	if len(got) < len(want) {
		return false
	}
	got = got[len(got)-len(want):]
	for i, w := range want {
		if strings.HasPrefix(w, "{") {
			continue
		}
		if got[i] != w {
			return false
		}
	}
	return true
}

// appendFingerprints computes the fingerprints of elements idx, in order,
// as FingerprintSize bytes each.
func appendFingerprints(dst []byte, f *fingerprinter, k *schema.Kind, elements []any, idx []int) ([]byte, error) {
	for _, i := range idx {
		fp, err := f.element(k, elements[i])
		if err != nil {
			return nil, fmt.Errorf("element %d: %w", i, err)
		}
		dst = append(dst, fp[:]...)
	}
	return dst, nil
}

// fingerprintAt returns fingerprint i of a packed list.
func fingerprintAt(packed []byte, i int) (fp Fingerprint) {
	copy(fp[:], packed[i*FingerprintSize:])
	return fp
}

// bodyFingerprints returns the fingerprints of the elements of a request
// body, as a chunk keeps them.
func bodyFingerprints(k *schema.Kind, body []byte) ([]byte, error) {
	doc, _, err := schema.DecodeJSON(body)
	if err != nil {
		return nil, err
	}
	elements, ok := doc.([]any)
	if !ok {
		return nil, fmt.Errorf("the request body is not an array of elements")
	}
	idx := make([]int, len(elements))
	for i := range idx {
		idx[i] = i
	}
	return appendFingerprints(make([]byte, 0, FingerprintSize*len(idx)), newFingerprinter(), k, elements, idx)
}
