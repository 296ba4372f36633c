package review

import (
	"strconv"

	"github.com/bulkdesk/bulkdesk/schema"
)

// factsFlat is factsFrom for an element read flat: its amount and source
// are read from the bytes, where factsFrom would take them decoded, which
// for each element built two maps only to read four values. What the
// flat reading cannot tell alike (an amount too large for an int64, a
// source with a value not text or a number) is decoded, by decoded.
func factsFlat(f schema.Flat, amountAt, sourceAt []string, names sourceNames, currencies map[string]string, decoded func(toks []string) any) facts {
	fc := facts{hash: hashFlat(f)}
	if a, ok := flatAt(f, amountAt); ok && a.Kind() == schema.FlatObject {
		if cur, n, ok := smallAmountFlat(a, currencies); ok {
			fc.currency, fc.hasAmount, fc.minor = cur, true, n
		} else {
			fc = factsFrom(fc.hash, decoded(amountAt), nil, nil)
		}
	}
	s, ok := flatAt(f, sourceAt)
	switch {
	case !ok:
	case s.Kind() == schema.FlatObject:
		typ, okType := flatDisplay(s, "type")
		id, okID := flatDisplay(s, "id")
		if okType && okID {
			fc.source = names.name(typ, id)
		} else {
			fc.source = factsFrom(0, nil, decoded(sourceAt), names).source
		}
	default:
		fc.source = factsFrom(0, nil, decoded(sourceAt), names).source
	}
	return fc
}

// flatAt returns the value at path tokens toks inside an object read
// flat; ok is false when there is none (or toks is empty).
func flatAt(f schema.Flat, toks []string) (schema.Flat, bool) {
	if len(toks) == 0 {
		return f, false
	}
	for _, t := range toks {
		if f.Kind() != schema.FlatObject {
			return f, false
		}
		var ok bool
		if f, ok = f.Member(t); !ok {
			return f, false
		}
	}
	return f, true
}

// smallAmountFlat is money.SmallAmountOf for an amount object read flat,
// when its amount fits an int64.
func smallAmountFlat(a schema.Flat, currencies map[string]string) (cur string, minor int64, ok bool) {
	v, has := a.Member("amount")
	if !has || v.Kind() != schema.FlatString && v.Kind() != schema.FlatNumber {
		return "", 0, false
	}
	n, err := strconv.ParseInt(string(v.Text()), 10, 64)
	if err != nil {
		return "", 0, false
	}
	if c, has := a.Member("currency"); has && c.Kind() == schema.FlatString {
		text := c.Text()
		if cur, ok = currencies[string(text)]; !ok {
			cur = string(text)
			if len(currencies) < maxSourceNames {
				currencies[cur] = cur
			}
		}
	}
	return cur, n, true
}

// flatDisplay is display of an object's member read flat, for a member
// that is missing, null, text or a number; ok is false for another.
func flatDisplay(obj schema.Flat, name string) (string, bool) {
	v, has := obj.Member(name)
	if !has {
		return "", true
	}
	switch v.Kind() {
	case schema.FlatNull:
		return "", true
	case schema.FlatString, schema.FlatNumber:
		return string(v.Text()), true
	}
	return "", false
}
