package ui

import (
	"errors"
	"go/ast"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/lang/langtest"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// No error's own text reaches an operator: the page reads an error only
// through errorText, which shows what is for people and logs the rest.
func TestOnlyErrorTextReadsAnErrorsText(t *testing.T) {
	for name, f := range parseDir(t, ".") {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "errorText" && fd.Recv == nil {
				continue
			}
			ast.Inspect(d, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) > 0 {
					return true
				}
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Error" {
					t.Errorf("%s: calls %s.Error(): show an error with errorText, which keeps what is not for people off the screen", name, exprText(sel.X))
				}
				return true
			})
		}
	}
}

// exprText is how an expression reads, for a message.
func exprText(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return exprText(x.X) + "." + x.Sel.Name
	}
	return "an expression"
}

// What the screen shows of an error: the worker's sentence as it said
// it, the page's own sentences, an error that can be said said in the
// console's language, and for anything else a sentence with a reference,
// never the error's own text.
func TestErrorTextShowsOnlyWhatIsForPeople(t *testing.T) {
	defer setLanguage(lang.English)
	setLanguage(lang.French)
	said := &wire.Error{Code: wire.CodeGone, Message: "le fichier n’est plus chargé"}
	if got := errorText(said); got != said.Message {
		t.Errorf("a worker's error reads %q, want %q", got, said.Message)
	}
	if got := errorText(saidError("déjà dit")); got != "déjà dit" {
		t.Errorf("the page's own sentence reads %q", got)
	}
	if got, want := errorText(lang.Errorf("the contract reader could not start")), lang.French.T("the contract reader could not start"); got != want {
		t.Errorf("an error that can be said reads %q, want %q", got, want)
	}
	for _, err := range []error{
		errors.New("json: cannot unmarshal secret-field"),
		// A worker's error it could not say (an unreadable body).
		wire.DecodeError([]byte("secret-field")),
	} {
		got := errorText(err)
		if strings.Contains(got, "secret-field") || !strings.Contains(got, "référence") {
			t.Errorf("%v reads %q: want a sentence with a reference, without the error's text", err, got)
		}
		if en := langtest.English(got); len(en) > 0 {
			t.Errorf("%q has English words %q", got, en)
		}
	}
}
