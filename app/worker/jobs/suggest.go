package jobs

import (
	"cmp"
	"slices"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/schema"
)

// suggestRows is how many rows of a table kind suggestions look at: the
// header is near the top.
const suggestRows = 50

// suggestForTable ranks the kinds by how many of the table's headers they
// recognise and how surely, then by how many of their required fields
// those fill (see rank).
func suggestForTable(t *ingest.Table, v *schema.Validator) []wire.KindSuggestion {
	top := *t
	top.Rows = t.Rows[:min(len(t.Rows), suggestRows)]
	var out []wire.KindSuggestion
	for _, k := range schema.Kinds() {
		im := ingest.NewImport(&top, k, v)
		required := make(map[string]bool)
		for _, tg := range im.Targets() {
			if tg.Required {
				required[tg.Path] = true
			}
		}
		ks := wire.KindSuggestion{Kind: k.ID, RequiredTotal: len(required), Evidence: im.HeaderEvidence()}
		for _, c := range im.Mapping().Columns {
			if c.Header != "" && c.Match != ingest.MatchIgnored {
				ks.Columns++
			}
			if c.Match == ingest.MatchExact || c.Match == ingest.MatchAlias {
				ks.Matched++
				if required[c.Field] {
					ks.Required++
				}
			}
		}
		out = append(out, ks)
	}
	rank(out)
	return out
}

// suggestForRequest ranks the kinds by how many of the fields a request
// body's first elements carry they know.
func suggestForRequest(doc any, v *schema.Validator) []wire.KindSuggestion {
	list, _ := doc.([]any)
	keys := make(map[string]bool)
	for _, e := range list[:min(len(list), suggestRows)] {
		obj, _ := e.(map[string]any)
		if body, ok := obj["requestBody"].(map[string]any); ok {
			for k := range body {
				keys[k] = true
			}
		}
		if params, ok := obj["pathParams"].(map[string]any); ok {
			for k := range params {
				keys["pathParams."+k] = true
			}
		}
	}
	var out []wire.KindSuggestion
	for _, k := range schema.Kinds() {
		roots := make(map[string]bool)
		required := make(map[string]bool)
		for _, f := range v.Fields(k) {
			root := f.Path
			if !strings.HasPrefix(root, "pathParams.") {
				root, _, _ = strings.Cut(root, ".")
				root, _, _ = strings.Cut(root, "[")
			}
			roots[root] = true
			if f.Required && !f.Conditional {
				required[root] = true
			}
		}
		ks := wire.KindSuggestion{Kind: k.ID, Columns: len(keys), RequiredTotal: len(required)}
		for key := range keys {
			if roots[key] {
				ks.Matched++
			}
			if required[key] {
				ks.Required++
			}
		}
		out = append(out, ks)
	}
	rank(out)
	return out
}

// rank sorts suggestions best first: most columns recognised, then the
// headers that name their fields most surely (a send's "Begünstigten-ID"
// before the account a transfer's payee's words would make of it), then
// the most required fields filled (the kind the headers describe most
// precisely: a German export's "Empfängerkonto" fills a transfer's
// required payee where a send's is one of two forms), then the largest
// share of them.
func rank(s []wire.KindSuggestion) {
	slices.SortStableFunc(s, func(a, b wire.KindSuggestion) int {
		return cmp.Or(b.Matched-a.Matched, b.Evidence-a.Evidence, b.Required-a.Required, cmp.Compare(share(b), share(a)))
	})
}

func share(s wire.KindSuggestion) float64 {
	if s.RequiredTotal == 0 {
		return 0
	}
	return float64(s.Required) / float64(s.RequiredTotal)
}

// sameScore reports two suggestions the headers cannot tell apart.
func sameScore(a, b wire.KindSuggestion) bool {
	return share(a) == share(b) && a.Matched == b.Matched && a.Required == b.Required && a.Evidence == b.Evidence
}
