package wire

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// jobTypes is every job with its request and result types. The page and
// the worker pair them only through the documentation of each Job
// constant ("Request: Open. Result: Prepared."), which
// TestJobsDocumented holds to this table.
var jobTypes = map[string]struct{ request, result any }{
	JobOpen:              {Open{}, Prepared{}},
	JobPrepare:           {Prepare{}, Prepared{}},
	JobBuild:             {Build{}, Summary{}},
	JobRows:              {RowsWindow{}, Rows{}},
	JobAmountLimits:      {AmountLimits{}, AmountLimitsSet{}},
	JobEdit:              {Edit{}, Edited{}},
	JobReplace:           {Replace{}, Replaced{}},
	JobUndo:              {Undo{}, Undone{}},
	JobNextProblem:       {NextProblem{}, FoundProblem{}},
	JobExport:            {Export{}, Exported{}},
	JobProblems:          {ProblemsPage{}, Problems{}},
	JobRestoreDraft:      {RestoreDraft{}, Restored{}},
	JobDiscardDraft:      {DiscardDraft{}, DiscardDraft{}},
	JobContract:          {SetContract{}, ContractState{}},
	JobPrepareSubmission: {PrepareSubmission{}, Confirmation{}},
	JobSubmit:            {Submit{}, Submitted{}},
	JobResumeSubmission:  {ResumeSubmission{}, Submitted{}},
	JobJournal:           {Journal{}, JournalList{}},
	JobForgetSubmission:  {ForgetSubmission{}, JournalList{}},
	JobAsideWorkbook:     {AsideWorkbook{}, File{}},
	JobReceipt:           {ReceiptRequest{}, File{}},
	JobAccessToken:       {AccessTokenRequest{}, AccessToken{}},
	JobBulks:             {ListBulks{}, BulkList{}},
	JobBulkTotals:        {GetBulkTotals{}, BulkTotals{}},
	JobBulk:              {GetBulk{}, BulkResult{}},
	JobBulkAction:        {BulkAction{}, BulkResult{}},
	JobOperations:        {ListOperations{}, OperationList{}},
	JobResultWorkbook:    {ResultWorkbook{}, ResultFile{}},
	JobReviewBulk:        {ReviewBulk{}, BulkReview{}},
	JobBulkRepeats:       {BulkRepeats{}, BulkRepeatsFound{}},
	JobServerReceipt:     {ServerReceipt{}, ServerReceiptCompared{}},
	JobTemplate:          {TemplateRequest{}, File{}},
}

// A constant is one constant declared in the package's source.
type constant struct {
	name, value, doc string
}

// constants reads the package's string constants whose names start with
// prefix, from its source: a job declared but left out of jobTypes
// should fail the tests, which a list written in the test cannot see.
func constants(t *testing.T, prefix string) []constant {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var out []constant
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if !strings.HasPrefix(n.Name, prefix) || i >= len(vs.Values) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					v, _ := strconv.Unquote(lit.Value)
					doc := vs.Doc.Text()
					if len(g.Specs) == 1 && doc == "" {
						doc = g.Doc.Text()
					}
					out = append(out, constant{n.Name, v, doc})
				}
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("no constant starts with %s", prefix)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// A name crosses the boundary alone: two jobs, types or envelope fields
// with one name would be mistaken for each other.
func TestNamesUnique(t *testing.T) {
	for _, prefix := range []string{"Job", "Type", "Field", "Code", "Class", "Phase", "Storage", "Export"} {
		seen := map[string]string{}
		for _, c := range constants(t, prefix) {
			if c.value == "" {
				t.Errorf("%s is empty", c.name)
			}
			if other, dup := seen[c.value]; dup {
				t.Errorf("%s and %s are both %q", other, c.name, c.value)
			}
			seen[c.value] = c.name
		}
	}
}

var (
	requestDoc = regexp.MustCompile(`Request:\s+(\w+)`)
	resultDoc  = regexp.MustCompile(`Result:\s+(\w+)`)
)

// Every job is in jobTypes, with the types its documentation names.
func TestJobsDocumented(t *testing.T) {
	jobs := constants(t, "Job")
	for _, c := range jobs {
		types, ok := jobTypes[c.value]
		if !ok {
			t.Errorf("%s (%q) is missing from jobTypes", c.name, c.value)
			continue
		}
		for _, x := range []struct {
			what string
			re   *regexp.Regexp
			v    any
		}{{"request", requestDoc, types.request}, {"result", resultDoc, types.result}} {
			m := x.re.FindStringSubmatch(c.doc)
			if m == nil {
				t.Errorf("%s does not say its %s type", c.name, x.what)
				continue
			}
			if got := reflect.TypeOf(x.v).Name(); got != m[1] {
				t.Errorf("%s's %s is %s, its documentation says %s", c.name, x.what, got, m[1])
			}
		}
	}
	if len(jobTypes) != len(jobs) {
		t.Errorf("jobTypes has %d jobs, the package declares %d", len(jobTypes), len(jobs))
	}
}

// Every request and result comes back from its JSON as it went, with
// every field set: a field that does not cross (unexported, "-", two
// fields under one name) would be lost on the way.
func TestJobTypesRoundTrip(t *testing.T) {
	for job, types := range jobTypes {
		for _, v := range []any{types.request, types.result} {
			roundTrip(t, job, v)
		}
	}
	for _, v := range []any{Progress{}, Error{}, StorageRequest{}, StorageReply{}} {
		roundTrip(t, "message", v)
	}
}

func roundTrip(t *testing.T, job string, v any) {
	t.Helper()
	typ := reflect.TypeOf(v)
	sent := reflect.New(typ)
	fill(sent.Elem(), 0)
	b, err := json.Marshal(sent.Interface())
	if err != nil {
		t.Errorf("%s: %s: %v", job, typ, err)
		return
	}
	got := reflect.New(typ)
	if err := json.Unmarshal(b, got.Interface()); err != nil {
		t.Errorf("%s: %s: %v", job, typ, err)
		return
	}
	if !reflect.DeepEqual(got.Interface(), sent.Interface()) {
		t.Errorf("%s: %s changed on its way:\n%s", job, typ, b)
	}
}

// fill sets every exported field of v to a value other than its zero.
func fill(v reflect.Value, depth int) {
	if depth > 12 {
		return
	}
	switch v.Interface().(type) {
	case time.Time:
		v.Set(reflect.ValueOf(time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)))
		return
	case json.RawMessage:
		v.Set(reflect.ValueOf(json.RawMessage(`{"type":"object"}`)))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(7)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(7)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0), depth+1)
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k := reflect.New(v.Type().Key()).Elem()
		fill(k, depth+1)
		e := reflect.New(v.Type().Elem()).Elem()
		fill(e, depth+1)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth+1)
			}
		}
	}
}

// fill itself must reach every field, or the round trip proves little.
func TestFillSetsEveryField(t *testing.T) {
	var s Summary
	fill(reflect.ValueOf(&s).Elem(), 0)
	if s.FirstRows == nil || len(s.FirstRows.Rows) != 1 || len(s.FirstRows.Rows[0].Marks) != 1 || s.Draft.Error == "" || len(s.Reading) != 1 {
		t.Errorf("fill left fields empty: %+v", s)
	}
	b, _ := json.Marshal(s)
	if strings.Contains(string(b), `:""`) || strings.Contains(string(b), `:0`) || strings.Contains(string(b), `:false`) {
		t.Errorf("fill left zero values: %s", b)
	}
}
