package ingest_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/schema"
)

// However the headers operators write are put together, a field is
// filled by one column at most, and a header fills the field it fills on
// its own, or none when another column of the row claims that field too:
// what a header means does not depend on its neighbours.
func TestAHeaderRowNeverFillsAFieldTwice(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 4))
	v := schema.Default()
	for _, k := range schema.Kinds() {
		vocab := headerVocabulary(k, v)
		alone := make(map[string]string, len(vocab))
		for _, h := range vocab {
			alone[h] = mapped(t, k.ID, []string{h})[h].Field
		}
		for range 60 {
			row := pick(rng, vocab, 1+rng.IntN(12))
			got := mapped(t, k.ID, row)
			claims := map[string]int{}
			for _, h := range row {
				if alone[h] != "" {
					claims[alone[h]]++
				}
			}
			filled := map[string]string{}
			for _, h := range row {
				f := got[h].Field
				if f != "" {
					if other, twice := filled[f]; twice {
						t.Errorf("%s %q: %q and %q both fill %s", k.ID, row, other, h, f)
					}
					filled[f] = h
				}
				want := alone[h]
				if claims[want] > 1 {
					want = ""
				}
				if f != want {
					t.Errorf("%s %q: %q fills %q, alone %q", k.ID, row, h, f, alone[h])
				}
			}
		}
	}
}

// headerVocabulary is every header of headerRows for kind k, every
// field's path and title, and some words that name no field, each once
// as normalized headers go (a row holds distinct headers).
func headerVocabulary(k *schema.Kind, v *schema.Validator) []string {
	var out []string
	seen := map[string]bool{}
	add := func(h string) {
		key := strings.ToLower(strings.Join(strings.FieldsFunc(h, func(r rune) bool { return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r > 127) }), ""))
		if key != "" && !seen[key] {
			seen[key] = true
			out = append(out, h)
		}
	}
	for _, r := range headerRows {
		if r.kind == k.ID {
			headers, _ := r.split()
			for _, h := range headers {
				add(h)
			}
		}
	}
	for _, f := range v.Fields(k) {
		if !strings.Contains(f.Path, "[]") {
			add(f.Path)
		}
		add(f.Title)
	}
	for _, h := range []string{"Konto", "Compte", "Datum", "Valuta", "Date de valeur", "Notiz", "Total", "Summe", "Name", "Typ", "Kostenstelle", "Remarque"} {
		add(h)
	}
	return out
}

// pick returns n distinct headers of vocab in a random order.
func pick(rng *rand.Rand, vocab []string, n int) []string {
	idx := rng.Perm(len(vocab))
	out := make([]string, 0, n)
	for _, i := range idx[:min(n, len(idx))] {
		out = append(out, vocab[i])
	}
	return out
}
