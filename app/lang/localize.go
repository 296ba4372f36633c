package lang

import "strings"

// Localize re-punctuates the numbers in s, written the English way
// ("EUR 1,234.56", "10,000 of 12,500"), for l: "EUR 1.234,56" in German.
// It is for texts whose numbers Bulkdesk wrote itself, such as totals;
// an operator's own text (a reference "v1.2") is not a number.
// Only a comma or point between two digits is a separator; the digits are
// never read as a number, so nothing is rounded or lost.
func (l Tag) Localize(s string) string {
	if l == English || !strings.ContainsAny(s, ",.") {
		return s
	}
	sep := l.Separators()
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c == ',' || c == '.') && i > 0 && isDigit(s[i-1]) && i+1 < len(s) && isDigit(s[i+1]) {
			if c == ',' {
				b.WriteRune(sep.Group)
			} else {
				b.WriteRune(sep.Decimal)
			}
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
