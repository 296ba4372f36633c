package schema_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/schema"
)

// seeds returns the valid example elements of a kind from testdata/valid.
func seeds(t testing.TB, kind string) []any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "valid", kind+".json"))
	if err != nil {
		t.Fatal(err)
	}
	doc, _, err := schema.DecodeJSON(data)
	if err != nil {
		t.Fatalf("%s: %v", kind, err)
	}
	return doc.([]any)
}

// deepCopy copies a decoded JSON value.
func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = deepCopy(e)
		}
		return a
	}
	return v
}

// pointerTokens splits a JSON pointer.
func pointerTokens(p string) []string {
	if p == "" {
		return nil
	}
	return strings.Split(strings.TrimPrefix(p, "/"), "/")
}

// getAt returns the value at pointer p.
func getAt(v any, p string) (any, bool) {
	for _, t := range pointerTokens(p) {
		switch c := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = c[t]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i >= len(c) {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// setAt replaces, or with del removes, the value at pointer p; it reports
// whether the parent exists.
func setAt(v any, p string, val any, del bool) bool {
	tokens := pointerTokens(p)
	parent, ok := getAt(v, "/"+strings.Join(tokens[:len(tokens)-1], "/"))
	if len(tokens) == 1 {
		parent, ok = v, true
	}
	if !ok {
		return false
	}
	last := tokens[len(tokens)-1]
	switch c := parent.(type) {
	case map[string]any:
		if del {
			delete(c, last)
		} else {
			c[last] = val
		}
		return true
	case []any:
		i, err := strconv.Atoi(last)
		if err != nil || i >= len(c) {
			return false
		}
		c[i] = val
		return true
	}
	return false
}

// fieldPointer turns a Field path into the JSON pointer of its first
// occurrence: "spendLimit[].value.amount" → "/requestBody/spendLimit/0/value/amount".
func fieldPointer(path string) string {
	path = strings.ReplaceAll(path, "[]", ".0")
	if strings.HasPrefix(path, "pathParams.") {
		return "/" + strings.ReplaceAll(path, ".", "/")
	}
	return "/requestBody/" + strings.ReplaceAll(path, ".", "/")
}

func errorsOf(ps []schema.Problem) []schema.Problem {
	var out []schema.Problem
	for _, p := range ps {
		if p.Severity == schema.Error {
			out = append(out, p)
		}
	}
	return out
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
