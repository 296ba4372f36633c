package langtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// codeShape is how a problem's code is written: words of lower-case
// letters and digits joined by dashes ("required", "iso-4217-currency").
var codeShape = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

// ProblemCodes reads the code of dirs (their non-test files) for the
// codes of the problems it reports, each with where it is written: a
// literal or constant given as a problem's Code (Code: "…", x.Code =
// "…"), or as the argument of a function whose parameter is named code
// (cellError("lost-digits", …), requestProblem("empty", …), a local
// func(code, msg string)). A new sort of problem is found as soon as it
// is written, so that a test can ask for a way to trigger it.
func ProblemCodes(dirs ...string) (map[string]string, error) {
	fset := token.NewFileSet()
	var files []*ast.File
	consts := map[string]string{}
	for _, dir := range dirs {
		names, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			return nil, err
		}
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				return nil, err
			}
			files = append(files, f)
			collectConsts(f, consts)
		}
	}
	codeParams := map[string]int{}
	for _, f := range files {
		collectCodeParams(f, codeParams)
	}
	found := map[string]string{}
	add := func(e ast.Expr) {
		if s, ok := stringOf(e, consts); ok && codeShape.MatchString(s) {
			if _, seen := found[s]; !seen {
				found[s] = fset.Position(e.Pos()).String()
			}
		}
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.KeyValueExpr:
				if k, ok := x.Key.(*ast.Ident); ok && k.Name == "Code" {
					add(x.Value)
				}
			case *ast.AssignStmt:
				for i, l := range x.Lhs {
					if s, ok := l.(*ast.SelectorExpr); ok && s.Sel.Name == "Code" && i < len(x.Rhs) {
						add(x.Rhs[i])
					}
				}
			case *ast.CallExpr:
				if i, ok := codeParams[calleeName(x.Fun)]; ok && i < len(x.Args) {
					add(x.Args[i])
				}
			}
			return true
		})
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("no problem codes in %v: the reader no longer knows how they are written", dirs)
	}
	return found, nil
}

// collectConsts keeps the string constants of f by name.
func collectConsts(f *ast.File, consts map[string]string) {
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if i < len(vs.Values) {
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						if v, err := strconv.Unquote(lit.Value); err == nil {
							consts[name.Name] = v
						}
					}
				}
			}
		}
	}
}

// collectCodeParams finds the functions of f, declared or assigned to a
// variable, that take a parameter named code, and its position.
func collectCodeParams(f *ast.File, params map[string]int) {
	index := func(ft *ast.FuncType) int {
		i := 0
		for _, field := range ft.Params.List {
			names := field.Names
			if len(names) == 0 {
				i++
				continue
			}
			for _, n := range names {
				if n.Name == "code" {
					return i
				}
				i++
			}
		}
		return -1
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncDecl:
			if i := index(x.Type); i >= 0 {
				params[x.Name.Name] = i
			}
		case *ast.AssignStmt:
			for k, r := range x.Rhs {
				if fl, ok := r.(*ast.FuncLit); ok && k < len(x.Lhs) {
					if id, ok := x.Lhs[k].(*ast.Ident); ok {
						if i := index(fl.Type); i >= 0 {
							params[id.Name] = i
						}
					}
				}
			}
		}
		return true
	})
}

func calleeName(e ast.Expr) string {
	switch f := e.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

// stringOf is the string a literal or a constant of the code read holds.
func stringOf(e ast.Expr, consts map[string]string) (string, bool) {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(x.Value)
		return s, err == nil
	case *ast.Ident:
		s, ok := consts[x.Name]
		return s, ok
	case *ast.SelectorExpr:
		s, ok := consts[x.Sel.Name]
		return s, ok
	}
	return "", false
}
