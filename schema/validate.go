package schema

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// MaxElements is the most elements one bulk request may hold.
const MaxElements = 10000

// TooManyElements is the code of the problem of a request of more than
// MaxElements elements: one bulk cannot take it, several can.
const TooManyElements = "too-many-elements"

// A Validator checks requests against the contract of their kind: a
// Source's schemas with the overlay's relax and require entries applied,
// and its advise entries as warnings (errors when Strict). Schemas are
// compiled the first time a kind is used, once; a Validator is safe for
// concurrent use.
type Validator struct {
	// Now is the clock that warnings about past dates compare against.
	Now func() time.Time

	source  *Source
	overlay *Overlay
	strict  bool
	// w writes the messages.
	w lang.Tag

	mu       sync.Mutex
	compiler *jsonschema.Compiler
	compiled map[string]*compiledKind
	// base is where this Validator's schemas are compiled: unique to it, so
	// that what is recorded by location (order.go) is its own.
	base string
}

// Options tune a Validator.
type Options struct {
	// Strict makes the overlay's advise entries errors instead of warnings.
	Strict bool
	// Language is the one the messages are written in; "" is English.
	Language lang.Tag
}

// compiledKind is everything derived once from a kind's schema.
type compiledKind struct {
	schema *jsonschema.Schema
	// check is the allocation-free pre-check (see precheck.go).
	check *checkNode
	// nodes indexes every reachable subschema by its location, so that an
	// error can be explained with the schema it came from.
	nodes  map[string]*jsonschema.Schema
	known  *knownNode
	fields []Field
	// advice are the kind's advise entries, ready to run.
	advice []advice
	// skipped lists the overlay entries that found nothing to change in
	// this contract, with why.
	skipped []string
	// advisory marks the schema of an advise entry: what it refuses, the
	// API accepts, and its explanations say so.
	advisory bool
	// w writes the messages, in the Validator's language.
	w lang.Tag
}

// NewValidator returns a Validator of the built-in contract.
func NewValidator() (*Validator, error) { return NewValidatorFor(Builtin(), Options{}) }

// NewValidatorFor returns a Validator of the schemas in src.
func NewValidatorFor(src *Source, o Options) (*Validator, error) {
	if src == nil || len(src.Schemas) == 0 {
		return nil, fmt.Errorf("the contract holds no element schemas")
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseRegexpEngine(compilePattern)
	for _, f := range integerFormats {
		c.RegisterFormat(f)
	}
	return &Validator{Now: time.Now, source: src, overlay: TheOverlay(), strict: o.Strict, w: o.Language,
		compiler: c, compiled: make(map[string]*compiledKind),
		base: fmt.Sprintf("https://bulkdesk.invalid/%d/schema/", validators.Add(1))}, nil
}

// validators counts the Validators made, to give each its own base URL.
var validators atomic.Int64

var (
	defaultOnce      sync.Once
	defaultValidator *Validator
	defaultErr       error
)

// Default returns a shared Validator of the built-in contract; its schemas
// are part of the binary, so an error here is a build defect.
func Default() *Validator {
	defaultOnce.Do(func() { defaultValidator, defaultErr = NewValidator() })
	if defaultErr != nil {
		panic(defaultErr)
	}
	return defaultValidator
}

// Source returns the schemas the Validator checks against.
func (v *Validator) Source() *Source { return v.source }

// Strict reports whether advise entries are errors.
func (v *Validator) Strict() bool { return v.strict }

// Has reports whether the Validator's contract defines kind k, and if not,
// why not in words.
func (v *Validator) Has(k *Kind) error {
	_, err := v.compile(k)
	return err
}

// Skipped lists the overlay entries that found nothing to change in kind
// k's schema: a newer contract may have fixed or moved what they concern.
func (v *Validator) Skipped(k *Kind) []string {
	ck, err := v.compile(k)
	if err != nil {
		return nil
	}
	return ck.skipped
}

// compile returns the compiled schema of a kind, compiling it on first use.
func (v *Validator) compile(k *Kind) (*compiledKind, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if ck, ok := v.compiled[k.ID]; ok {
		return ck, nil
	}
	data, ok := v.source.Schemas[k.ID]
	if !ok {
		return nil, fmt.Errorf("the contract %s has no %s bulk (%s)", v.source.Name, k.ID, k.Standard)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("reading the schema of %s in %s: %w", k.ID, v.source.Name, err)
	}
	skipped := applyOverlay(k, doc, v.overlay)
	url := v.base + k.ID + ".json"
	if err := recordOrder(data, url); err != nil {
		return nil, fmt.Errorf("reading the schema of %s in %s: %w", k.ID, v.source.Name, err)
	}
	if err := v.compiler.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("loading the schema of %s: %w", k.ID, err)
	}
	sch, err := v.compiler.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("compiling the schema of %s: %w", k.ID, err)
	}
	ck := newCompiledKind(sch, v.w)
	ck.skipped = skipped
	ck.known = knownFields(sch)
	ck.fields = v.describeFields(k, collectFields(sch))
	if ck.advice, err = v.compileAdvice(k); err != nil {
		return nil, err
	}
	v.compiled[k.ID] = ck
	return ck, nil
}

func newCompiledKind(sch *jsonschema.Schema, w lang.Tag) *compiledKind {
	ck := &compiledKind{schema: sch, check: prepareCheck(sch), nodes: make(map[string]*jsonschema.Schema), w: w}
	indexNodes(sch, ck.nodes)
	return ck
}

// ValidateRequest checks decoded request elements (see DecodeJSON) against
// the contract of kind k. The report holds request-level errors (empty, too
// many elements) and every problem of every element.
func (v *Validator) ValidateRequest(k *Kind, elements []any) *Report {
	r, _ := v.ValidateRequestContext(context.Background(), k, elements, nil)
	return r
}

// progressEvery is how many elements the long-running checks validate
// between two calls of their progress function and two looks at their
// context.
const progressEvery = 100

// ValidateRequestContext is ValidateRequest for callers that show progress
// or let the operator cancel: it calls progress, when not nil, with the
// number of elements checked so far every hundred elements and once at the
// end, and stops with ctx's error as soon as ctx is done.
func (v *Validator) ValidateRequestContext(ctx context.Context, k *Kind, elements []any, progress func(done int)) (*Report, error) {
	return v.validateEach(ctx, k, len(elements), func(i int) []Problem { return v.ValidateElement(k, i, elements[i]) }, progress)
}

// validateEach is ValidateRequestContext for n elements whose problems
// problemsOf finds, one at a time and in order.
func (v *Validator) validateEach(ctx context.Context, k *Kind, n int, problemsOf func(i int) []Problem, progress func(done int)) (*Report, error) {
	r := &Report{Kind: k.ID, Elements: n}
	if err := v.Has(k); err != nil {
		r.Add(requestProblem("no-contract", err.Error()))
		return r, nil
	}
	switch {
	case n == 0:
		r.Add(requestProblem("empty", v.w.F("the request holds no elements; a bulk needs 1 to %s", v.w.Count(MaxElements))))
	case n > MaxElements:
		r.Add(requestProblem(TooManyElements, v.w.F("the request holds %s elements; a bulk takes at most %s: split it into several bulks", v.w.Count(n), v.w.Count(MaxElements))))
	}
	cut := 0
	for i := range n {
		if i%progressEvery == 0 && i > 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if progress != nil {
				progress(i)
			}
		}
		ps := problemsOf(i)
		if len(ps) > 1 && len(r.Problems)+len(ps) > maxListedProblems {
			first := slices.IndexFunc(ps, func(p Problem) bool { return p.Severity == Error })
			ps = ps[max(first, 0) : max(first, 0)+1]
			cut++
		}
		r.Add(ps...)
	}
	if cut > 0 {
		p := requestProblem("problems-cut", v.w.F("past the first %s problems, only the first error of each element is listed (%s elements): fix these and check again", v.w.Count(maxListedProblems), v.w.Count(cut)))
		p.Severity = Warning
		r.Add(p)
	}
	if progress != nil {
		progress(n)
	}
	r.Sort()
	return r, nil
}

// maxListedProblems is how many problems a check lists in full: past
// them, each further invalid element keeps only its first error, so that
// a large body of invalid elements (a million of them fit in 20 MB, with
// several problems each) is reported in bounded memory, and its count of
// invalid elements stays exact.
const maxListedProblems = 100_000

// CheckRequest reads a request body and validates it. The error is non-nil
// only when the body is not JSON the reader accepts; a body that is JSON but
// not an array is a request-level problem in the report.
func (v *Validator) CheckRequest(k *Kind, body []byte) (*Report, error) {
	return v.CheckRequestContext(context.Background(), k, body, nil)
}

// CheckRequestContext is CheckRequest with the progress and cancellation of
// ValidateRequestContext; progress is also told how many elements the body
// holds once it is read. The error is ctx's when ctx ends the check.
func (v *Validator) CheckRequestContext(ctx context.Context, k *Kind, body []byte, progress func(done, total int)) (*Report, error) {
	doc, dups, err := DecodeJSON(body)
	if err != nil {
		return nil, err
	}
	return v.CheckDocumentContext(ctx, k, doc, dups, progress)
}

// CheckDocument is CheckRequest for a body already decoded by DecodeJSON,
// with the pointers of the keys it repeats: a caller that keeps the
// document (to write it out again) need not hold two trees of a large body
// at once, each several times its size.
func (v *Validator) CheckDocument(k *Kind, doc any, dups []string) *Report {
	r, _ := v.CheckDocumentContext(context.Background(), k, doc, dups, nil)
	return r
}

// CheckDocumentContext is CheckDocument with the progress and
// cancellation of CheckRequestContext.
func (v *Validator) CheckDocumentContext(ctx context.Context, k *Kind, doc any, dups []string, progress func(done, total int)) (*Report, error) {
	elements, ok := doc.([]any)
	if !ok {
		r := &Report{Kind: k.ID}
		r.Add(requestProblem("not-an-array", v.w.F("the request must be a JSON array of elements, each {\"pathParams\": …, \"requestBody\": …}; this file holds %s", describeJSON(v.w, doc))))
		return r, nil
	}
	var each func(int)
	if progress != nil {
		progress(0, len(elements))
		each = func(done int) { progress(done, len(elements)) }
	}
	r, err := v.ValidateRequestContext(ctx, k, elements, each)
	if err != nil {
		return nil, err
	}
	r.Add(duplicateKeyProblems(v.w, dups)...)
	r.Sort()
	return r, nil
}

// ValidateElement checks one element, index i of its request, and returns
// its problems: contract errors, unknown fields, and the overlay's advice.
func (v *Validator) ValidateElement(k *Kind, i int, element any) []Problem {
	ck, err := v.compile(k)
	if err != nil {
		return []Problem{{Element: i, Code: "no-contract", Message: err.Error(), Severity: Error}}
	}
	var out []Problem
	if ck.check.check(element) != valid {
		if err := ck.schema.Validate(element); err != nil {
			out = ck.explain(i, element, err)
		}
	}
	if obj, ok := element.(map[string]any); ok {
		out = ck.known.check(ck.w, i, obj, out)
		out = v.advise(k, ck, i, obj, out)
	}
	return out
}

// Language is the one the Validator writes its messages in; a reader of
// files writes its own in the same.
func (v *Validator) Language() lang.Tag { return v.w }

// Fields returns the fields of kind k's elements, for mapping, templates and
// help text; none when the contract lacks the kind.
func (v *Validator) Fields(k *Kind) []Field {
	ck, err := v.compile(k)
	if err != nil {
		return nil
	}
	return ck.fields
}

func requestProblem(code, msg string) Problem {
	return Problem{Element: RequestLevel, Code: code, Message: msg, Severity: Error}
}

// indexNodes records every subschema reachable from s by location.
func indexNodes(s *jsonschema.Schema, nodes map[string]*jsonschema.Schema) {
	if s == nil || nodes[s.Location] != nil {
		return
	}
	nodes[s.Location] = s
	eachSubschema(s, func(c *jsonschema.Schema) { indexNodes(c, nodes) })
}

// eachSubschema calls f for every direct subschema of s that this project's
// schemas use.
func eachSubschema(s *jsonschema.Schema, f func(*jsonschema.Schema)) {
	for _, c := range []*jsonschema.Schema{s.Ref, s.Not, s.If, s.Then, s.Else, s.Items2020} {
		if c != nil {
			f(c)
		}
	}
	for _, list := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf, s.PrefixItems} {
		for _, c := range list {
			f(c)
		}
	}
	for _, c := range s.Properties {
		f(c)
	}
}
