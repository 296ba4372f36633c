package webhook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/textproto"
	"strings"
	"unicode/utf8"

	"github.com/bulkdesk/bulkdesk/app/lang"
)

// ParseHeaders reads request headers as a person captures them, for the
// command line and the verifier page. It takes either
//
//   - lines of "Name: value", as curl -v, a proxy log or a browser's
//     network panel copies them: blank lines, a request line such as
//     "POST /webhooks/transfers/watch HTTP/1.1" and curl's "> " prefix
//     are skipped, and the text stops at the first blank line after a
//     header (where a pasted body would begin); or
//   - one JSON object of header names to string values.
//
// Names are case-insensitive. Values are trimmed of surrounding spaces and
// tabs, as HTTP does. A line that is not a header is an error naming its
// line number.
func ParseHeaders(text []byte) (http.Header, error) {
	if !utf8.Valid(text) {
		return nil, lang.Errorf("the headers are not valid UTF-8 text")
	}
	if trimmed := bytes.TrimSpace(text); len(trimmed) > 0 && trimmed[0] == '{' {
		return parseJSONHeaders(trimmed)
	}
	h := make(http.Header)
	seen := false
	for i, line := range strings.Split(string(text), "\n") {
		n := i + 1
		line = strings.TrimSuffix(line, "\r")
		if line == ">" {
			line = ""
		}
		line = strings.TrimPrefix(line, "> ")
		if strings.TrimSpace(line) == "" {
			if seen {
				break
			}
			continue
		}
		if !seen && isRequestLine(line) {
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, lang.Errorf("line %d: %q is not a header: it has no ':' between name and value", n, clip(line, 60))
		}
		name = strings.TrimSpace(name)
		if !validHeaderName(name) {
			return nil, lang.Errorf("line %d: %q is not a header name", n, clip(name, 60))
		}
		h.Add(name, strings.Trim(value, " \t"))
		seen = true
	}
	return h, nil
}

// isRequestLine reports whether line looks like "METHOD /path HTTP/1.1".
func isRequestLine(line string) bool {
	f := strings.Fields(line)
	return len(f) == 3 && strings.HasPrefix(f[2], "HTTP/") && strings.HasPrefix(f[1], "/") && f[0] == strings.ToUpper(f[0])
}

// validHeaderName reports whether name is an HTTP token.
func validHeaderName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

func parseJSONHeaders(text []byte) (http.Header, error) {
	var obj map[string]any
	if json.Unmarshal(text, &obj) != nil {
		return nil, lang.Errorf("the headers look like JSON but are not a JSON object")
	}
	h := make(http.Header, len(obj))
	for name, v := range obj {
		if !validHeaderName(name) {
			return nil, lang.Errorf("%q is not a header name", clip(name, 60))
		}
		key := textproto.CanonicalMIMEHeaderKey(name)
		switch v := v.(type) {
		case string:
			h[key] = append(h[key], strings.Trim(v, " \t"))
		case []any: // a header captured with several values
			for _, e := range v {
				s, ok := e.(string)
				if !ok {
					return nil, lang.Errorf("header %q: every value must be a string", name)
				}
				h[key] = append(h[key], strings.Trim(s, " \t"))
			}
		default:
			return nil, lang.Errorf("header %q: the value must be a string, not %s", name, jsonKind(v))
		}
	}
	return h, nil
}

// jsonKind names a JSON value's kind in the operator's words.
func jsonKind(v any) lang.Word {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return lang.Word(lang.Mark("a boolean"))
	case float64:
		return lang.Word(lang.Mark("a number (put the timestamp in quotes)"))
	case map[string]any:
		return lang.Word(lang.Mark("an object"))
	default:
		return lang.Word(fmt.Sprintf("%T", v))
	}
}
