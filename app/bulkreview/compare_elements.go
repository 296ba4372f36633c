package bulkreview

import (
	"encoding/hex"
	"fmt"
)

// What an element's Difference is about. Index is the element's place in
// the bulk, except for DiffMissing, where it is its place in the receipt.
const (
	// DiffElement: the bulk's element at Index is not the receipt's
	// element at that place, and neither is found elsewhere.
	DiffElement = "element"
	// DiffExtra: the bulk's element at Index is not in the receipt.
	DiffExtra = "extra"
	// DiffMissing: the receipt's element at Index is not in the bulk.
	DiffMissing = "missing"
	// DiffOrder: the bulk holds the receipt's elements, but the one at
	// Index is the receipt's element at another place.
	DiffOrder = "order"
)

// compareElements names every element of the review that differs from the
// fingerprints the receipt's chunk declares, by index. Elements are matched
// by fingerprint, so that one element added, left out or changed is named
// alone rather than every element after it: a changed element is one the
// receipt does not hold at a place whose receipt element the bulk does not
// hold either. When the bulk holds exactly the receipt's elements in
// another order, each one out of place is named.
func compareElements(c ReceiptChunk, rv *Review) []Difference {
	if c.Fingerprints == nil {
		return nil
	}
	declared := c.Fingerprints
	found := make([]string, len(rv.Fingerprints))
	for i, fp := range rv.Fingerprints {
		found[i] = hex.EncodeToString(fp[:])
	}
	// First the elements in their declared place, then the others with
	// the same fingerprint anywhere, in order.
	matchedFound := make([]int, len(found)) // the receipt's index + 1; 0 unmatched
	matchedDeclared := make([]bool, len(declared))
	for i := range min(len(found), len(declared)) {
		if found[i] == declared[i] {
			matchedFound[i], matchedDeclared[i] = i+1, true
		}
	}
	free := make(map[string][]int)
	for j, fp := range declared {
		if !matchedDeclared[j] {
			free[fp] = append(free[fp], j)
		}
	}
	for i, fp := range found {
		if matchedFound[i] != 0 {
			continue
		}
		if js := free[fp]; len(js) > 0 {
			matchedFound[i], matchedDeclared[js[0]] = js[0]+1, true
			free[fp] = js[1:]
		}
	}
	var out []Difference
	add := func(what string, index int, format string, a ...any) {
		out = append(out, Difference{What: what, Text: fmt.Sprintf(format, a...), Index: &index})
	}
	extra := func(i int) bool { return matchedFound[i] == 0 }
	missing := func(j int) bool { return !matchedDeclared[j] }
	n := max(len(found), len(declared))
	named := false
	for i := range n {
		switch {
		case i < len(found) && extra(i) && i < len(declared) && missing(i):
			add(DiffElement, i, "bulk %s: element %d is not what the receipt declares there", rv.BulkID, i)
		case i < len(found) && extra(i):
			add(DiffExtra, i, "bulk %s: element %d is not in the receipt", rv.BulkID, i)
		case i < len(declared) && missing(i):
			add(DiffMissing, i, "bulk %s: the receipt's element %d is not in the bulk", rv.BulkID, i)
		default:
			continue
		}
		named = true
	}
	if named {
		return out
	}
	for i, m := range matchedFound {
		if m != i+1 {
			add(DiffOrder, i, "bulk %s: element %d is the receipt's element %d: the elements are in another order", rv.BulkID, i, m-1)
		}
	}
	return out
}
