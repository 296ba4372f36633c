package sandbox

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/schema"
)

// maxBody bounds a submission: 10,000 of the largest elements fit well
// within it.
const maxBody = 64 << 20

// failMarker in an element makes its operation fail, whatever the share.
// The tests share it, to write elements that fail.
const failMarker = fixture.FailMarker

// submitter serves the submission endpoint of kind k.
func (s *Sandbox) submitter(k *schema.Kind) authHandler {
	return func(w http.ResponseWriter, r *http.Request, p principal) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				badRequest(w, fmt.Sprintf("the request body is over %d MiB", maxBody>>20))
				return
			}
			badRequest(w, "reading the request body: "+err.Error())
			return
		}
		ep, _ := k.Endpoint(bool(p.api))
		endpoint := p.api.String() + " " + ep.String()
		ref := r.Header.Get(bulkapi.HeaderIdempotencyRef)
		digest := sha256.Sum256(body)

		s.submitMu.Lock()
		defer s.submitMu.Unlock()
		if ref != "" {
			s.mu.Lock()
			s.store.forgetRefs(s.cfg.Now(), s.cfg.RefTTL)
			prior, seen := s.store.refs[refKey{p.identity, ref}]
			s.mu.Unlock()
			if seen {
				if prior.digest != digest || prior.endpoint != endpoint {
					conflict(w, "ALREADY_SUBMITTED", "this idempotency-ref was used for another request (bulk "+prior.receipt.BulkID+"); the same ref needs the same payload and operation")
					return
				}
				writeJSON(w, http.StatusCreated, prior.receipt)
				return
			}
		}
		elements, fields, msg := s.check(k, body)
		if msg != "" {
			badRequest(w, msg, fields...)
			return
		}
		b, err := s.newBulk(k, p.identity, elements)
		if err != nil {
			badRequest(w, err.Error())
			return
		}
		s.mu.Lock()
		s.store.add(b)
		rc := bulkapi.Receipt{BulkID: b.id, OperationCount: len(b.ops), Path: "/bulks/" + b.id}
		if ref != "" {
			s.store.refs[refKey{p.identity, ref}] = refRecord{digest: digest, endpoint: endpoint, receipt: rc, at: s.cfg.Now()}
		}
		s.mu.Unlock()
		writeJSON(w, http.StatusCreated, rc)
	}
}

// check validates a request body with the schema package. On failure it
// returns the message and one syntax error per problem.
func (s *Sandbox) check(k *schema.Kind, body []byte) ([]any, []bulkapi.InvalidField, string) {
	doc, _, err := schema.DecodeJSON(body)
	if err != nil {
		return nil, nil, "the request body is not JSON: " + err.Error()
	}
	elements, ok := doc.([]any)
	if !ok {
		return nil, []bulkapi.InvalidField{{FieldName: "request", Error: "REQUIRED", Params: []string{"an array of elements"}}}, "the request body must be a JSON array of elements"
	}
	switch n := len(elements); {
	case n == 0:
		return nil, []bulkapi.InvalidField{{FieldName: "request", Error: "SIZE", Params: []string{"1", strconv.Itoa(schema.MaxElements)}}}, "a bulk needs at least one element"
	case n > schema.MaxElements:
		return nil, []bulkapi.InvalidField{{FieldName: "request", Error: "SIZE", Params: []string{"1", strconv.Itoa(schema.MaxElements)}}},
			fmt.Sprintf("a bulk takes at most %d operations; this request holds %d", schema.MaxElements, n)
	}
	report := s.validator.ValidateRequest(k, elements)
	var fields []bulkapi.InvalidField
	for _, pr := range report.Errors() {
		fields = append(fields, invalidField(pr))
	}
	if len(fields) > 0 {
		return nil, fields, fmt.Sprintf("%d of %d elements are invalid", len(report.InvalidElements()), len(elements))
	}
	return elements, nil, ""
}

// invalidField turns a schema problem into the contract's syntax error,
// named "[i].path.to.field".
func invalidField(p schema.Problem) bulkapi.InvalidField {
	name := "request"
	if p.Element != schema.RequestLevel {
		name = "[" + strconv.Itoa(p.Element) + "]" + dotted(p.Pointer)
	}
	f := bulkapi.InvalidField{FieldName: name, Error: errorKind(p.Code)}
	if p.Expected != "" {
		f.Params = []string{p.Expected}
	}
	return f
}

// dotted turns "/requestBody/spendLimit/0/value" into
// ".requestBody.spendLimit[0].value".
func dotted(pointer string) string {
	if pointer == "" {
		return ""
	}
	var b strings.Builder
	for _, tok := range strings.Split(pointer[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		if _, err := strconv.Atoi(tok); err == nil {
			b.WriteString("[" + tok + "]")
			continue
		}
		b.WriteString("." + tok)
	}
	return b.String()
}

// errorKind maps the schema's problem codes to the contract's error names.
func errorKind(code string) string {
	switch code {
	case "required":
		return "REQUIRED"
	case "min-length", "max-length", "min-items", "max-items":
		return "SIZE"
	case "minimum", "maximum":
		return "RANGE"
	case "enum", "const":
		return "IN"
	case "pattern", "format":
		return "REGEX"
	case "not":
		return "NOT_IN"
	}
	return "REQUIRES"
}

// newBulk makes a SUBMITTED bulk of the elements.
func (s *Sandbox) newBulk(k *schema.Kind, owner bulkapi.Identity, elements []any) (*bulk, error) {
	b := &bulk{owner: owner, kind: k, operation: k.Operation.String(), status: bulkapi.Submitted, ops: make([]operation, len(elements))}
	for i, e := range elements {
		obj, _ := e.(map[string]any) // validated: every element is an object
		whole, err := canonical(obj)
		if err != nil {
			return nil, fmt.Errorf("element %d: %w", i, err)
		}
		op := operation{method: k.Operation.Method, path: operationPath(k, obj), status: bulkapi.OpSubmitted}
		if body, ok := obj["requestBody"]; ok {
			if op.payload, err = canonical(body); err != nil {
				return nil, fmt.Errorf("element %d: %w", i, err)
			}
		}
		op.fails = strings.Contains(whole, failMarker) || s.cfg.FailShare > 0 && share(whole, i) < s.cfg.FailShare
		b.ops[i] = op
	}
	return b, nil
}

// operationPath fills the operation's path parameter from the element.
func operationPath(k *schema.Kind, element map[string]any) string {
	path := k.Operation.Path
	if k.PathParam == "" {
		return path
	}
	params, _ := element["pathParams"].(map[string]any)
	id, _ := params[k.PathParam].(string)
	name := "{" + strings.Trim(k.PathParam, "_") + "}"
	return strings.Replace(path, name, id, 1)
}

// canonical is the canonical JSON of a decoded value, as the console sends
// it (schema.AppendCanonical): the payload kept is the one sent.
func canonical(v any) (string, error) {
	b, err := schema.AppendCanonical(nil, v)
	return string(b), err
}

// share maps an element and its position to a number in [0, 1).
func share(element string, i int) float64 {
	h := sha256.Sum256([]byte(strconv.Itoa(i) + "\x00" + element))
	return float64(binary.BigEndian.Uint64(h[:8])>>11) / (1 << 53)
}
