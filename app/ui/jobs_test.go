package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// parseDir parses the non-test Go files of a directory.
func parseDir(t *testing.T, dir string) map[string]*ast.File {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(name)] = f
	}
	return files
}

var resultDoc = regexp.MustCompile(`Result:\s+(\w+)`)

// jobResults maps each Job constant of package wire to the result type
// its documentation names.
func jobResults(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range parseDir(t, "../wire") {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				doc := vs.Doc.Text()
				if doc == "" && len(g.Specs) == 1 {
					doc = g.Doc.Text()
				}
				for _, n := range vs.Names {
					if m := resultDoc.FindStringSubmatch(doc); strings.HasPrefix(n.Name, "Job") && m != nil {
						out[n.Name] = m[1]
					}
				}
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no job found in package wire")
	}
	return out
}

// jobCalls are the ways a page runs a job: the index of the job's name
// among the arguments, and of the result among the done function's
// parameters.
var jobCalls = map[string]struct{ job, result int }{
	"runJob":     {1, 0},
	"runFileJob": {1, 0},
	"watchJob":   {0, 0},
	"load":       {2, 1},
}

// Every page runs jobs the same way: through jobCalls, naming the job by
// its constant and reading its result into the type the job's
// documentation names. A mismatch would only show in the browser, as an
// answer that "could not be read" or a result left empty.
func TestJobsCalledWithTheirResultType(t *testing.T) {
	results := jobResults(t)
	files := parseDir(t, ".")
	funcs := map[string]*ast.FuncType{} // functions and methods, by name
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				funcs[fd.Name.Name] = fd.Type
			}
		}
	}
	calls := 0
	for name, f := range files {
		for _, d := range f.Decls {
			// The helpers themselves pass on the job they are given.
			if fd, ok := d.(*ast.FuncDecl); ok && hasKey(jobCalls, fd.Name.Name) {
				continue
			}
			ast.Inspect(d, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				fun := call.Fun
				if ix, ok := fun.(*ast.IndexExpr); ok {
					fun = ix.X
				}
				id, ok := fun.(*ast.Ident)
				if !ok {
					return true
				}
				how, ok := jobCalls[id.Name]
				if !ok || len(call.Args) <= how.job {
					return true
				}
				calls++
				job := workerName(call.Args[how.job])
				want, known := results[job]
				if !known {
					t.Errorf("%s: %s runs %s, not a job constant of package wire", name, id.Name, job)
					return true
				}
				var ft *ast.FuncType
				switch done := call.Args[len(call.Args)-1].(type) {
				case *ast.FuncLit:
					ft = done.Type
				case *ast.SelectorExpr:
					ft = funcs[done.Sel.Name]
				case *ast.Ident:
					ft = funcs[done.Name]
				}
				got := "?"
				if ft != nil {
					if params := flatParams(ft); how.result < len(params) {
						got = workerName(params[how.result])
					}
				}
				if got != want {
					t.Errorf("%s: %s(%s) reads its result as %s, the job's is %s", name, id.Name, job, got, want)
				}
				return true
			})
		}
	}
	if calls < 10 {
		t.Errorf("found only %d calls of a job: is jobCalls out of date?", calls)
	}
}

func hasKey[V any](m map[string]V, k string) bool {
	_, ok := m[k]
	return ok
}

// workerName is X of wire.X, or how the expression reads otherwise.
func workerName(e ast.Expr) string {
	if s, ok := e.(*ast.SelectorExpr); ok {
		if pkg, ok := s.X.(*ast.Ident); ok && pkg.Name == "wire" {
			return s.Sel.Name
		}
	}
	if l, ok := e.(*ast.BasicLit); ok {
		return l.Value
	}
	return "an expression"
}

// flatParams lists a function's parameter types, one per parameter.
func flatParams(ft *ast.FuncType) []ast.Expr {
	var out []ast.Expr
	for _, f := range ft.Params.List {
		for range max(1, len(f.Names)) {
			out = append(out, f.Type)
		}
	}
	return out
}

// Only jobs.go holds the worker client: a page that took it from
// background() would send jobs and read answers its own way again.
func TestOnlyJobsHoldTheClient(t *testing.T) {
	for name, f := range parseDir(t, ".") {
		if name == "jobs.go" || name == "background.go" {
			continue
		}
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			if call, ok := n.(*ast.CallExpr); ok && len(stack) > 0 {
				if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "background" && !startsOrChecks(stack[len(stack)-1]) {
					t.Errorf("%s: uses the worker client from background() directly; run jobs with runJob", name)
				}
			}
			stack = append(stack, n)
			return true
		})
	}
}

// startsOrChecks reports whether the parent of a call of background()
// only starts the worker or checks that the page has one.
func startsOrChecks(parent ast.Node) bool {
	switch p := parent.(type) {
	case *ast.ExprStmt:
		return true
	case *ast.BinaryExpr:
		y, ok := p.Y.(*ast.Ident)
		return ok && y.Name == "nil" && (p.Op == token.EQL || p.Op == token.NEQ)
	}
	return false
}
