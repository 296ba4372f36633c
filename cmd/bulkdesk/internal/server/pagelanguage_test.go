package server_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/server"
)

// The import page takes a file before the console's program runs, so the
// page the server draws is the one an operator reads first: it is drawn in
// the operator's language (the choice made in Settings, kept in a cookie,
// or else the browser's), even while other requests draw it in another.
func TestPagesAreDrawnInTheOperatorsLanguage(t *testing.T) {
	srv := newServer(t, server.Options{})
	cases := []struct {
		name     string
		header   []string
		lang     string
		label    string
		transfer string
	}{
		{"no preference", nil, "en", "Bulk kind", "Create transfers"},
		{"browser in German", []string{"Accept-Language", "de-DE,de;q=0.9,en;q=0.8"}, "de", "Art des Sammelauftrags", "Umbuchungen erstellen"},
		{"browser in Swiss French", []string{"Accept-Language", "fr-CH, fr;q=0.9"}, "fr", "Type de lot", "Créer des transferts"},
		{"a language the console does not speak first", []string{"Accept-Language", "it-IT,de;q=0.5"}, "de", "Art des Sammelauftrags", "Umbuchungen erstellen"},
		{"chosen in Settings over the browser's", []string{"Accept-Language", "de", "Cookie", "bulkdesk-lang=fr"}, "fr", "Type de lot", "Créer des transferts"},
		{"a cookie of no language", []string{"Accept-Language", "de", "Cookie", "bulkdesk-lang=xx"}, "de", "Art des Sammelauftrags", "Umbuchungen erstellen"},
	}
	etags := map[string]string{}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range 4 { // in parallel: each page in its own language
		for _, c := range cases {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, page := get(t, srv, "GET", "/", c.header...)
				mu.Lock()
				defer mu.Unlock()
				if !strings.Contains(string(page), `<html lang="`+c.lang+`"`) {
					t.Errorf("%s: the page does not say lang=%q", c.name, c.lang)
				}
				if !hasElement(page, "label", c.label, `for="kind"`) || !hasElement(page, "option", c.transfer, `value="transfers"`) {
					t.Errorf("%s: the kind picker is not in %s (want %q, %q)", c.name, c.lang, c.label, c.transfer)
				}
				if prev, ok := etags[c.lang]; ok && prev != res.Header.Get("ETag") {
					t.Errorf("%s: ETag %q, and %q for the same page in the same language", c.name, res.Header.Get("ETag"), prev)
				}
				etags[c.lang] = res.Header.Get("ETag")
			}()
		}
	}
	wg.Wait()
	if etags["de"] == etags["fr"] || etags["de"] == etags["en"] {
		t.Errorf("the page has one ETag in several languages (%v): a browser would keep one for the other", etags)
	}
}

// The early script shows "Reading …" before the program runs, in the
// words the server drew in the status line's data.
func TestTheEarlyWordsAreInThePagesLanguage(t *testing.T) {
	srv := newServer(t, server.Options{})
	for header, want := range map[string]string{
		"en": `data-reading="Reading {file}"`,
		"de": `data-reading="{file} wird gelesen"`,
		"fr": `data-reading="Lecture de {file}"`,
	} {
		_, page := get(t, srv, "GET", "/", "Accept-Language", header)
		if !strings.Contains(string(page), want) {
			t.Errorf("Accept-Language %s: the status line has no %s", header, want)
		}
	}
	// So is the note that the program is loading.
	for header, want := range map[string]string{"en": "Loading Bulkdesk…", "de": "Bulkdesk wird geladen…", "fr": "Chargement de Bulkdesk…"} {
		_, page := get(t, srv, "GET", "/", "Accept-Language", header)
		if !strings.Contains(string(page), ">"+want+"<") {
			t.Errorf("Accept-Language %s: the page does not say %q while its program loads", header, want)
		}
	}
}
