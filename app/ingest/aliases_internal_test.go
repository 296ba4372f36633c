package ingest

import (
	"testing"

	"github.com/bulkdesk/bulkdesk/schema"
)

// No header is the name of two fields of one kind: the tables of
// aliases, the names of path parameters and the unsure dates agree on
// each header, whichever way they write it, so that which field a header
// fills never depends on the order a table is read in.
func TestNoHeaderNamesTwoFields(t *testing.T) {
	v := schema.Default()
	for _, k := range schema.Kinds() {
		cat := newCatalog(k, v.Fields(k))
		names := map[string]string{} // normalized header → field
		from := map[string]string{}  // normalized header → as written
		name := func(header, path string) {
			n := normalizeHeader(header)
			if path = kindPath(k, path); path == "" {
				return
			}
			if _, err := cat.resolve(path); err != nil {
				return
			}
			if other, ok := names[n]; ok && other != path {
				t.Errorf("%s: %q names %s and %q names %s", k.ID, from[n], other, header, path)
			}
			names[n], from[n] = path, header
		}
		for _, table := range []string{"*", k.ID} {
			for h, p := range aliases[table] {
				name(h, p)
			}
		}
		if pp := k.PathParam; pp != "" {
			for _, h := range pathParamNames[pp] {
				name(h, "pathParams."+pp)
			}
		}
		for _, h := range unsureDates {
			if p, ok := names[normalizeHeader(h)]; ok {
				t.Errorf("%s: %q is an unsure date and a name of %s", k.ID, h, p)
			}
		}
	}
}

// Words name a side or a role, not both, however they are written.
func TestNoWordNamesASideAndARole(t *testing.T) {
	for w, side := range sideWords {
		if role, ok := roleWords[w]; ok {
			t.Errorf("%q names the side %s and the role %s", w, side, role)
		}
	}
}
