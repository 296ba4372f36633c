package ui

import (
	"testing"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// A count of one reads in the singular in German and French ("1 affiché",
// "1 weiteres Problem"), which a text with the count filled in cannot say.
func TestCountsOfOneReadInTheSingular(t *testing.T) {
	defer setLanguage(consoleLang)
	running := wire.BulkInfo{Status: wire.BulkRunning, Operations: 5, Done: 1, Counts: map[string]int{wire.OperationCompleted: 1}}
	one := wire.Summary{Elements: 1}
	for _, c := range []struct {
		l    lang.Tag
		got  func() string
		want string
	}{
		{lang.French, func() string { return problemsHeading(1, 4) }, "Problèmes (1 affiché sur 4)"},
		{lang.French, func() string { return problemsHeading(2, 4) }, "Problèmes (2 affichés sur 4)"},
		{lang.German, func() string { return moreProblemsShown(1) }, "1 weiteres Problem angezeigt."},
		{lang.French, func() string { return moreProblemsShown(1) }, "1 problème de plus affiché."},
		{lang.French, func() string { return elementsShown(1, 3) }, "1 élément affiché sur 3"},
		{lang.French, func() string { return elementsShown(0, 3) }, "0 élément affiché sur 3"},
		{lang.German, func() string { return elementsShown(0, 3) }, "0 von 3 Elementen angezeigt"},
		{lang.English, func() string { return elementsShown(0, 3) }, "0 of 3 elements shown"},
		{lang.French, func() string { return stateWords(running) }, "En cours\u202f: 1 sur 5 traitée"},
		{lang.German, func() string { return downloadAsideWords(1) }, "Das ungültige Element als Arbeitsmappe herunterladen"},
		{lang.French, func() string { return rowsShown(&wire.Summary{Elements: 3, Invalid: 1}, true) }, "Affichage de la seule ligne comportant des erreurs."},
		{lang.German, func() string { return controlTotals{count: "1"}.checkCount(one).message }, "1 Element, wie erwartet."},
		{lang.French, func() string { return controlTotals{count: "3"}.checkCount(one).message }, "1 élément chargé, 2 de moins que les 3 attendus."},
		{lang.German, func() string { return kindSuggestion("Umbuchungen", []wire.KindSuggestion{{Matched: 1, Columns: 7}}) },
			"Die Spaltenköpfe deuten auf Umbuchungen hin. 1 ihrer 7 Spalten passt zu den Feldern dieser Art. Bestätigen Sie dies oder wählen Sie oben eine andere Art."},
		{lang.French, func() string { return kindSuggestion("virements", []wire.KindSuggestion{{Matched: 1, Columns: 7}}) },
			"Les en-têtes suggèrent virements. 1 de ses 7 colonnes correspond aux champs de ce type. Confirmez-le ou choisissez un autre type ci-dessus."},
	} {
		setLanguage(c.l)
		if got := c.got(); got != c.want {
			t.Errorf("%s: %q, want %q", c.l, got, c.want)
		}
	}
}
