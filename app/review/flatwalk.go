package review

import (
	"bytes"
	"hash/maphash"
	"slices"
	"strconv"

	"github.com/bulkdesk/bulkdesk/schema"
)

// The walks of this file are those of a decoded element (leafWalker's
// element, hashOf) over an element read flat from a body kept as its
// bytes: the review of a large body then finds its columns and the
// facts of each element without building its maps. They give what the
// decoded walks give; the tests hold the two to it.

// A flatMember is an object's member, for walking them in key order.
type flatMember struct {
	key []byte
	v   schema.Flat
}

// elementFlat is element for an element read flat.
func (w *leafWalker) elementFlat(f schema.Flat) {
	if f.Kind() != schema.FlatObject {
		return
	}
	if w.done != nil && w.allDoneFlat(f) {
		return
	}
	if v, ok := f.Member("pathParams"); ok {
		w.path = append(w.path[:0], "pathParams"...)
		w.walkFlat(v, 0)
	}
	if v, ok := f.Member("requestBody"); ok {
		w.path = w.path[:0]
		w.walkFlat(v, 0)
	}
}

// allDoneFlat is allDone for an element read flat.
func (w *leafWalker) allDoneFlat(f schema.Flat) bool {
	if v, ok := f.Member("pathParams"); ok {
		w.path = append(w.path[:0], "pathParams"...)
		if !w.seenFlat(v) {
			return false
		}
	}
	if v, ok := f.Member("requestBody"); ok {
		w.path = w.path[:0]
		if !w.seenFlat(v) {
			return false
		}
	}
	return true
}

// seenFlat is seen for a value read flat.
func (w *leafWalker) seenFlat(v schema.Flat) bool {
	n := len(w.path)
	ok := true
	switch v.Kind() {
	case schema.FlatObject:
		v.Each(func(k []byte, x schema.Flat) {
			if !ok {
				return
			}
			w.path = w.path[:n]
			if n > 0 {
				w.path = append(w.path, '.')
			}
			w.path = append(w.path, k...)
			ok = w.seenFlat(x)
		})
	case schema.FlatArray:
		if allScalarsFlat(v) {
			return w.done(w.path)
		}
		i := 0
		v.Each(func(_ []byte, item schema.Flat) {
			if ok {
				w.path = append(w.path[:n], '[')
				w.path = strconv.AppendInt(w.path, int64(i), 10)
				w.path = append(w.path, ']')
				ok = w.seenFlat(item)
			}
			i++
		})
	default:
		if n > 0 {
			return w.done(w.path)
		}
	}
	w.path = w.path[:n]
	return ok
}

// walkFlat is walk for a value read flat: members in the order of their
// keys, as walk sorts a map's.
func (w *leafWalker) walkFlat(v schema.Flat, depth int) {
	n := len(w.path)
	switch v.Kind() {
	case schema.FlatObject:
		for len(w.members) <= depth {
			w.members = append(w.members, nil)
		}
		members := w.members[depth][:0]
		v.Each(func(k []byte, x schema.Flat) { members = append(members, flatMember{k, x}) })
		slices.SortFunc(members, func(a, b flatMember) int { return bytes.Compare(a.key, b.key) })
		w.members[depth] = members
		for _, m := range members {
			w.path = w.path[:n]
			if n > 0 {
				w.path = append(w.path, '.')
			}
			w.path = append(w.path, m.key...)
			w.walkFlat(m.v, depth+1)
		}
	case schema.FlatArray:
		if allScalarsFlat(v) {
			w.leaf(w.path)
			return
		}
		i := 0
		v.Each(func(_ []byte, item schema.Flat) {
			w.path = append(w.path[:n], '[')
			w.path = strconv.AppendInt(w.path, int64(i), 10)
			w.path = append(w.path, ']')
			w.walkFlat(item, depth+1)
			i++
		})
	default:
		if n > 0 {
			w.leaf(w.path)
		}
	}
	w.path = w.path[:n]
}

func allScalarsFlat(list schema.Flat) bool {
	all := true
	list.Each(func(_ []byte, v schema.Flat) {
		if k := v.Kind(); k == schema.FlatObject || k == schema.FlatArray {
			all = false
		}
	})
	return all
}

// hashFlat is hashOf for a value read flat: maphash.Bytes of a text
// equals maphash.String of the same text.
func hashFlat(v schema.Flat) uint64 {
	switch v.Kind() {
	case schema.FlatNull:
		return tagNull
	case schema.FlatTrue:
		return tagTrue
	case schema.FlatFalse:
		return tagFalse
	case schema.FlatString:
		return mix(tagString, maphash.Bytes(hashSeed, v.Text()))
	case schema.FlatNumber:
		return mix(tagNumber, maphash.Bytes(hashSeed, v.Text()))
	case schema.FlatArray:
		h := tagList
		v.Each(func(_ []byte, x schema.Flat) { h = mix(h, hashFlat(x)) })
		return h
	}
	var sum uint64
	v.Each(func(k []byte, x schema.Flat) { sum += mix(maphash.Bytes(hashSeed, k), hashFlat(x)) })
	return mix(tagObject, sum)
}
