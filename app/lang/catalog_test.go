package lang_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/schema"
)

// translatedCode is the code whose texts the catalogs hold: the console's
// components mark each text with t or tf (and plural's two forms), the
// other packages with a lang.Tag's T, F and Plural (and counted's two
// forms, and a cell's problem's format), an error said in the operator's
// language with lang.Errorf (and money's refusals with fail), and all of
// them a text kept for later with lang.Mark.
var translatedCode = []string{".", "../ui", "../apifailure", "../../schema", "../reading", "../workbook", "../ingest", "../webhook", "../worker/apijobs", "../worker/handoff", "../worker/jobs", "../worker/runner", "../ui/workerclient", "../wire", "../bulkapi", "../money", "../review", "../submission", "../../cmd/bulkdesk"}

// codeTexts reads dir's code for every text it translates.
func codeTexts(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	texts := map[string]string{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		// The helpers that pass a text on are not its place.
		forwarders := map[string]bool{"tf": true, "plural": true, "counted": true}
		ast.Inspect(f, func(n ast.Node) bool {
			if fd, ok := n.(*ast.FuncDecl); ok && forwarders[fd.Name.Name] {
				return false
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var name string
			switch f := call.Fun.(type) {
			case *ast.Ident:
				name = f.Name
			case *ast.SelectorExpr:
				// A language's methods, w.T("…") and v.w.F("…", …), and
				// lang.Mark("…") and lang.Errorf("…", …).
				switch f.Sel.Name {
				case "T", "F", "Mark":
					name = f.Sel.Name
				case "Plural":
					name = "plural"
				case "Errorf":
					if x, ok := f.X.(*ast.Ident); ok && x.Name == "lang" {
						name = "F"
					}
				case "errorf":
					// The JSON reader's errors, d.errorf("…", …).
					name = "F"
				}
			}
			if name == "fail" && filepath.Base(dir) == "money" && len(call.Args) >= 2 {
				// money's refusals, fail(text, "%q …", …), said by lang.
				name = "failf"
			}
			var args []ast.Expr
			switch name {
			case "t", "tf", "T", "F", "Mark":
				if len(call.Args) == 0 {
					return true
				}
				args = call.Args[:1]
			case "plural":
				// plural(n, one, many); ingest's plural(n, word) is English.
				if len(call.Args) != 3 {
					return true
				}
				args = call.Args[1:3]
			case "counted":
				args = call.Args[2:4]
			case "cellError":
				args = call.Args[1:2]
			case "failf":
				args = call.Args[1:2]
			default:
				return true
			}
			for _, a := range args {
				lit, ok := a.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					// A text t or T shows from elsewhere was marked where
					// it was made, with lang.Mark (or is the contract's
					// words); the marks and plural's and counted's forms
					// are literals.
					if name == "Mark" || name == "plural" || name == "counted" || name == "cellError" || name == "failf" {
						t.Errorf("%s: %s takes a literal, which the catalogs can hold", fset.Position(a.Pos()), name)
					}
					continue
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				texts[s] = fset.Position(lit.Pos()).String()
			}
			return true
		})
	}
	return texts
}

// contractTexts are the words Bulkdesk gives the contract: the kinds'
// titles, every field's title and description, the shapes' names.
func contractTexts() map[string]string {
	texts := map[string]string{}
	for _, k := range schema.Kinds() {
		texts[k.Title] = "the kind " + k.ID
	}
	// A problem's severity, as the error workbooks write it.
	for _, s := range []schema.Severity{schema.Error, schema.Warning} {
		texts[string(s)] = "schema.Severity"
	}
	o := schema.TheOverlay()
	for kind, fields := range o.Fields {
		for path, w := range fields {
			texts[w.Title] = "overlay.json, " + kind + " " + path
			texts[w.Description] = "overlay.json, " + kind + " " + path
		}
	}
	for name, s := range o.Shapes {
		texts[s] = "overlay.json, shape " + name
	}
	// The overlay's rules explain themselves in their descriptions and
	// titles, which the validator's messages quote.
	for _, e := range o.Entries {
		var rule any
		if len(e.Rule.Schema) == 0 || json.Unmarshal(e.Rule.Schema, &rule) != nil {
			continue
		}
		collectWords(rule, func(s string) { texts[s] = "overlay.json, " + e.ID })
	}
	delete(texts, "")
	return texts
}

// collectWords calls found with every description and title in a schema.
func collectWords(v any, found func(string)) {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			if s, ok := c.(string); ok && (k == "description" || k == "title") {
				found(s)
				continue
			}
			collectWords(c, found)
		}
	case []any:
		for _, c := range x {
			collectWords(c, found)
		}
	}
}

var placeholder = regexp.MustCompile(`%(\[\d+\])?[-+# 0]*\d*(\.\d+)?[a-zA-Z%]`)

var argIndex = regexp.MustCompile(`\[\d+\]`)

// placeholders are a format's verbs in order; a translation that reorders
// them with explicit indexes (%[2]s) is compared sorted.
func placeholders(s string, sorted bool) []string {
	p := placeholder.FindAllString(s, -1)
	for i := range p {
		p[i] = argIndex.ReplaceAllString(p[i], "")
	}
	if sorted {
		slices.Sort(p)
	}
	return p
}

// TestEveryTextHasEveryLanguage holds the catalogs to the code: every text
// the console shows is in German and French, with the placeholders of the
// English, and no catalog keeps a text nothing shows any more. With
// BULKDESK_MISSING_TEXTS=DIR it writes what each catalog lacks to
// DIR/LANG.json, for a translator.
func TestEveryTextHasEveryLanguage(t *testing.T) {
	texts := map[string]string{}
	for _, dir := range translatedCode {
		found := codeTexts(t, dir)
		if len(found) == 0 {
			t.Fatalf("found only %d texts in %s: the test no longer reads the code", len(found), dir)
		}
		for s, where := range found {
			texts[s] = where
		}
	}
	for s, where := range contractTexts() {
		if _, ok := texts[s]; !ok {
			texts[s] = where
		}
	}
	for _, l := range lang.All {
		if l == lang.English {
			continue
		}
		words, err := lang.Catalog(l)
		if err != nil {
			t.Fatal(err)
		}
		missing := map[string]string{}
		for s, where := range texts {
			tr, ok := words[s]
			switch {
			case !ok || strings.TrimSpace(tr) == "":
				missing[s] = ""
				t.Errorf("%s: no %s for %q", where, l.Name(), s)
			case !slices.Equal(placeholders(s, argIndex.MatchString(tr)), placeholders(tr, argIndex.MatchString(tr))):
				t.Errorf("%s: the %s of %q is %q: placeholders %v, want %v (reordered only with explicit indexes such as %%[2]s)", where, l.Name(), s, tr, placeholders(tr, false), placeholders(s, false))
			}
		}
		for s := range words {
			if _, ok := texts[s]; !ok {
				t.Errorf("the %s catalog holds %q, which nothing shows", l.Name(), s)
			}
		}
		if dir := os.Getenv("BULKDESK_MISSING_TEXTS"); dir != "" && len(missing) > 0 {
			b, _ := json.MarshalIndent(missing, "", "\t")
			if err := os.WriteFile(filepath.Join(dir, string(l)+".json"), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
