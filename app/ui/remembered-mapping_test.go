package ui

import (
	"slices"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// A reading is remembered only when the operator chose some of it: a
// column's field, or a decision such as the units or the header row.
func TestOnlyAReadingTheOperatorChoseIsRemembered(t *testing.T) {
	auto := &wire.Prepared{
		Columns: []wire.ColumnView{{Header: "Betrag", Field: "destinationAmount.amount", Match: wire.MatchAlias}, {Header: "Notiz"}},
		Reading: reading.Reading{Units: reading.Decision{Value: reading.Major, How: reading.Detected}},
	}
	if operatorChose(auto) {
		t.Error("an automatic reading counts as chosen")
	}
	column := *auto
	column.Columns = []wire.ColumnView{auto.Columns[0], {Header: "Notiz", Field: "description", Match: wire.MatchManual}}
	setting := *auto
	setting.Reading.DateOrder = reading.Decision{Value: "DMY", How: reading.Chosen}
	value := *auto
	value.Values = []wire.SetValue{{Field: "profileId", Value: "110321"}}
	for name, pr := range map[string]*wire.Prepared{"a column": &column, "a setting": &setting, "a value for every row": &value} {
		if !operatorChose(pr) {
			t.Errorf("%s chosen does not count", name)
		}
	}
}

// The notice says how the file is read in the operator's language: the
// columns, the header row and the settings that matter to it.
func TestTheNoticeSaysHowTheFileIsRead(t *testing.T) {
	defer setLanguage(consoleLang)
	pr := &wire.Prepared{
		HeaderRow:      1,
		Columns:        []wire.ColumnView{{Header: "Betrag", Field: "destinationAmount.amount"}, {Header: "Notiz"}, {Header: "Währung", Field: "destinationAmount.currency"}},
		Settings:       wire.Settings{Amounts: wire.AmountsMajor, Decimal: ",", Group: ".", TimeZone: "Europe/Berlin"},
		SettingsMatter: []string{wire.SettingAmounts, wire.SettingSeparators, wire.SettingTimeZone},
		Values:         []wire.SetValue{{Field: "source.type", Value: "managed_accounts"}},
	}
	for l, want := range map[lang.Tag]string{
		lang.English: "Read as last time for these headers: 2 columns mapped, 1 value set for every row, headers on row 1, amounts in major units, decimal comma, time zone Europe/Berlin.",
		lang.German:  "Wie beim letzten Mal für diese Spaltenköpfe gelesen: 2 Spalten zugeordnet, 1 Wert für alle Zeilen festgelegt, Spaltenköpfe in Zeile 1, Beträge in Haupteinheiten, Dezimalkomma, Zeitzone Europe/Berlin.",
		lang.French:  "Lu comme la dernière fois pour ces en-têtes\u202f: 2 colonnes associées, 1 valeur fixée pour toutes les lignes, en-têtes en ligne 1, montants en unités principales, virgule décimale, fuseau horaire Europe/Berlin.",
	} {
		setLanguage(l)
		if got := rememberedText(pr); got != want {
			t.Errorf("%s: %q, want %q", l, got, want)
		}
	}
	if h := headersOf(pr); !slices.Equal(h, []string{"Betrag", "Notiz", "Währung"}) {
		t.Errorf("headers %q", h)
	}
}
