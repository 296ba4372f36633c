package schema

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// JSON Schema patterns are ECMA-262 regular expressions. Go's regexp (RE2)
// reads most of them the same way, with one difference that matters for the
// API's patterns: ECMA's \s also matches Unicode spaces (no-break space,
// U+2028, …), RE2's only ASCII ones. compilePattern therefore spells \s out.
//
// Nearly every pattern in the contract is an anchored run of character
// classes, such as ^[0-9]+$ or ^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$. Those are
// matched by a small loop instead of RE2: under WebAssembly RE2 costs several
// microseconds per call, which made patterns a large share of validation time.

// ecmaSpace is the set ECMA-262 gives \s: WhiteSpace and LineTerminator.
const ecmaSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// compilePattern is the jsonschema.RegexpEngine used for every schema.
func compilePattern(pattern string) (jsonschema.Regexp, error) {
	if m, ok := parseClassRun(pattern); ok {
		return m, nil
	}
	re, err := regexp.Compile(translateECMA(pattern))
	if err != nil {
		return nil, fmt.Errorf("pattern %q: %w", pattern, err)
	}
	return ecmaRegexp{re, pattern}, nil
}

// ecmaRegexp is an RE2 regexp that reports the pattern as it was written.
type ecmaRegexp struct {
	re     *regexp.Regexp
	source string
}

func (r ecmaRegexp) MatchString(s string) bool { return r.re.MatchString(s) }
func (r ecmaRegexp) String() string            { return r.source }

// translateECMA rewrites \s and \S into classes RE2 reads as ECMA-262 does.
func translateECMA(p string) string {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			next := p[i+1]
			i++
			switch {
			case next == 's' && inClass:
				b.WriteString(ecmaSpace)
			case next == 's':
				b.WriteString("[" + ecmaSpace + "]")
			case next == 'S' && !inClass:
				b.WriteString("[^" + ecmaSpace + "]")
			default:
				b.WriteByte('\\')
				b.WriteByte(next)
			}
		case c == '[' && !inClass:
			inClass = true
			b.WriteByte(c)
		case c == ']' && inClass:
			inClass = false
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// charClass is a set of characters: a bitmap for ASCII and ranges beyond it.
type charClass struct {
	ascii  [2]uint64
	ranges [][2]rune
}

func (c *charClass) addRange(lo, hi rune) {
	for r := lo; r <= hi && r < utf8.RuneSelf; r++ {
		c.ascii[r>>6] |= 1 << (r & 63)
	}
	if hi >= utf8.RuneSelf {
		c.ranges = append(c.ranges, [2]rune{max(lo, utf8.RuneSelf), hi})
	}
}

func (c *charClass) has(r rune) bool {
	if r < utf8.RuneSelf {
		return c.ascii[r>>6]&(1<<(r&63)) != 0
	}
	for _, rg := range c.ranges {
		if r >= rg[0] && r <= rg[1] {
			return true
		}
	}
	return false
}

func (c *charClass) overlaps(d *charClass) bool {
	if c.ascii[0]&d.ascii[0] != 0 || c.ascii[1]&d.ascii[1] != 0 {
		return true
	}
	for _, a := range c.ranges {
		for _, b := range d.ranges {
			if a[0] <= b[1] && b[0] <= a[1] {
				return true
			}
		}
	}
	return false
}

// classItem is one character class with its repetition bounds; max < 0 is unbounded.
type classItem struct {
	class    charClass
	min, max int
}

// classRun matches an anchored sequence of classItems. It is built only when
// every item with a variable count shares no character with any later item,
// so taking as many characters as possible at each step is exact.
type classRun struct {
	items  []classItem
	source string
}

func (m *classRun) String() string { return m.source }

func (m *classRun) MatchString(s string) bool {
	i := 0
	for k := range m.items {
		it := &m.items[k]
		n := 0
		for i < len(s) && (it.max < 0 || n < it.max) {
			r, size := rune(s[i]), 1
			if r >= utf8.RuneSelf {
				r, size = utf8.DecodeRuneInString(s[i:])
			}
			if !it.class.has(r) {
				break
			}
			i += size
			n++
		}
		if n < it.min {
			return false
		}
	}
	return i == len(s)
}

// parseClassRun recognises patterns of the form ^(class quantifier?)*$ whose
// items can be matched greedily; ok is false for anything else.
func parseClassRun(p string) (m *classRun, ok bool) {
	if !strings.HasPrefix(p, "^") || !strings.HasSuffix(p, "$") || strings.HasSuffix(p, `\$`) {
		return nil, false
	}
	body := p[1 : len(p)-1]
	m = &classRun{source: p}
	for len(body) > 0 {
		var it classItem
		var rest string
		switch body[0] {
		case '[':
			var err error
			it.class, rest, err = parseClass(body[1:])
			if err != nil {
				return nil, false
			}
		case '\\':
			r, n, ok := parseEscape(body[1:])
			if !ok {
				return nil, false
			}
			it.class.addRange(r, r)
			rest = body[1+n:]
		default:
			r, n := utf8.DecodeRuneInString(body)
			if strings.ContainsRune(`.()|?*+{}^$]`, r) {
				return nil, false
			}
			it.class.addRange(r, r)
			rest = body[n:]
		}
		it.min, it.max, rest, ok = parseQuantifier(rest)
		if !ok {
			return nil, false
		}
		m.items = append(m.items, it)
		body = rest
	}
	for i := range m.items {
		if m.items[i].min == m.items[i].max {
			continue
		}
		for j := i + 1; j < len(m.items); j++ {
			if m.items[i].class.overlaps(&m.items[j].class) {
				return nil, false
			}
		}
	}
	return m, true
}

// parseClass reads a bracket expression after its '['; negated classes are
// left to RE2.
func parseClass(s string) (c charClass, rest string, err error) {
	if strings.HasPrefix(s, "^") {
		return c, "", fmt.Errorf("negated class")
	}
	if strings.HasPrefix(s, "]") {
		return c, "", fmt.Errorf("empty class")
	}
	for {
		if s == "" {
			return c, "", fmt.Errorf("unterminated class")
		}
		if s[0] == ']' {
			return c, s[1:], nil
		}
		var lo rune
		if s[0] == '\\' {
			if strings.HasPrefix(s, `\s`) {
				addECMASpace(&c)
				s = s[2:]
				continue
			}
			r, n, ok := parseEscape(s[1:])
			if !ok {
				return c, "", fmt.Errorf("escape")
			}
			lo, s = r, s[1+n:]
		} else {
			r, n := utf8.DecodeRuneInString(s)
			lo, s = r, s[n:]
		}
		if len(s) >= 2 && s[0] == '-' && s[1] != ']' {
			s = s[1:]
			var hi rune
			if s[0] == '\\' {
				r, n, ok := parseEscape(s[1:])
				if !ok {
					return c, "", fmt.Errorf("escape")
				}
				hi, s = r, s[1+n:]
			} else {
				r, n := utf8.DecodeRuneInString(s)
				hi, s = r, s[n:]
			}
			if hi < lo {
				return c, "", fmt.Errorf("range out of order")
			}
			c.addRange(lo, hi)
			continue
		}
		c.addRange(lo, lo)
	}
}

func addECMASpace(c *charClass) {
	for _, r := range "\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff" {
		c.addRange(r, r)
	}
	c.addRange(0x2000, 0x200a)
}

// parseEscape reads the escape after a backslash: a control letter or a
// punctuation character standing for itself. Class escapes such as \d are
// left to RE2.
func parseEscape(s string) (r rune, n int, ok bool) {
	if s == "" {
		return 0, 0, false
	}
	switch s[0] {
	case 'n':
		return '\n', 1, true
	case 'r':
		return '\r', 1, true
	case 't':
		return '\t', 1, true
	case 'f':
		return '\f', 1, true
	case 'v':
		return '\v', 1, true
	}
	if s[0] < utf8.RuneSelf && strings.IndexByte(`\/-?:().$_,'+#=!"%&*<>;{}@[]^|.`, s[0]) >= 0 {
		return rune(s[0]), 1, true
	}
	return 0, 0, false
}

// parseQuantifier reads an optional *, +, ?, {n}, {n,} or {n,m}.
func parseQuantifier(s string) (lo, hi int, rest string, ok bool) {
	if s == "" {
		return 1, 1, s, true
	}
	switch s[0] {
	case '*':
		return 0, -1, s[1:], true
	case '+':
		return 1, -1, s[1:], true
	case '?':
		return 0, 1, s[1:], true
	case '{':
		end := strings.IndexByte(s, '}')
		if end < 0 {
			return 0, 0, "", false
		}
		spec, rest := s[1:end], s[end+1:]
		loS, hiS, comma := strings.Cut(spec, ",")
		lo, err := strconv.Atoi(loS)
		if err != nil || lo < 0 {
			return 0, 0, "", false
		}
		switch {
		case !comma:
			hi = lo
		case hiS == "":
			hi = -1
		default:
			hi, err = strconv.Atoi(hiS)
			if err != nil || hi < lo {
				return 0, 0, "", false
			}
		}
		if strings.HasPrefix(rest, "?") || strings.HasPrefix(rest, "+") {
			return 0, 0, "", false
		}
		return lo, hi, rest, true
	}
	return 1, 1, s, true
}
