package ingest_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/fixture/importing"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/schema"
)

// bankExport is a bank's export of transfers: it has no column for the
// profile or the source's type, which every transfer needs.
const bankExport = `Quellkonto;Zielkarte;Währung;Betrag;Notiz
1001;2001;EUR;25000;
1002;2002;EUR;1999;
;;;;Zwischensumme
1003;2003;JPY;500;
`

// importWith prepares the import of file, a CSV file called export.csv,
// as transfers validated by v.
func importWith(t *testing.T, v *schema.Validator, file string) *ingest.Import {
	t.Helper()
	f, err := ingest.Open("export.csv", []byte(file), ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tab, err := f.Table("", nil)
	if err != nil {
		t.Fatal(err)
	}
	return ingest.NewImport(tab, fixture.Kind("transfers"), v)
}

// bankImport prepares bankExport's import as transfers, its columns
// mapped by hand, with vals set for every row.
func bankImport(t *testing.T, v *schema.Validator, vals map[string]string) *ingest.Import {
	t.Helper()
	im := importWith(t, v, bankExport)
	m := im.Mapping()
	for col, field := range []string{"source.id", "destination.id", "destinationAmount.currency", "destinationAmount.amount"} {
		if err := m.Set(col, field); err != nil {
			t.Fatal(err)
		}
	}
	m.Values = nil
	for field, value := range vals {
		m.SetValue(field, value)
	}
	if err := im.SetMapping(m); err != nil {
		t.Fatal(err)
	}
	return im
}

func TestAValueSetForEveryRowFillsItsField(t *testing.T) {
	im := bankImport(t, fixture.Validator(), map[string]string{
		"profileId": " 110321 ", "source.type": "managed_accounts", "destination.type": "managed_cards",
	})
	res := im.Build(nil)
	if !res.Report.Valid() || len(res.Elements) != 3 {
		t.Fatalf("%d elements, problems %+v", len(res.Elements), res.Report.Problems)
	}
	// Read as a cell is: the spaces around an id go.
	want := `{"requestBody":{"destination":{"id":"2002","type":"managed_cards"},"destinationAmount":{"amount":1999,"currency":"EUR"},"profileId":"110321","source":{"id":"1002","type":"managed_accounts"}}}`
	if got := asJSON(res.Value(1)); got != want {
		t.Errorf("element 1 = %s\nwant %s", got, want)
	}
	// The row of a note only is no element: a value set for every row
	// makes no row.
	if rows := []int{res.Elements[0].Row, res.Elements[1].Row, res.Elements[2].Row}; rows[2] != 5 {
		t.Errorf("elements from rows %v", rows)
	}
	if !slices.Contains(importing.Codes(res.Report), "export!E4 left-out-row") {
		t.Errorf("problems %v", importing.Codes(res.Report))
	}
	got := im.Values()
	if len(got) != 3 || got[0].Field != "destination.type" || got[1].Field != "profileId" || got[1].Parsed != "110321" || got[1].Error != "" {
		t.Errorf("Values() = %+v", got)
	}
}

// TestAValueSetForEveryRowIsReadAsACellOfItsField: an amount in major
// units takes its row's currency, so the same value fits EUR's rows and
// not JPY's; a date fills a date's parts; a choice is read in the
// operator's words.
func TestAValueSetForEveryRowIsReadAsACellOfItsField(t *testing.T) {
	im := importOf(t, "export.csv", []byte(bankExport), "transfers")
	m := im.Mapping()
	for col, field := range []string{"source.id", "destination.id", "destinationAmount.currency", ""} {
		if err := m.Set(col, field); err != nil {
			t.Fatal(err)
		}
	}
	m.SetValue("profileId", "110321")
	m.SetValue("source.type", "Verwaltetes Konto")
	m.SetValue("destination.type", "managed_cards")
	m.SetValue("destinationAmount.amount", "12.50")
	if err := im.SetMapping(m); err != nil {
		t.Fatal(err)
	}
	if err := im.SetSettings(ingest.Settings{Amounts: ingest.Major, Decimal: "."}); err != nil {
		t.Fatal(err)
	}
	res := im.Build(nil)
	if v, _ := valueAt(res.Value(0), "destinationAmount.amount"); asJSON(v) != "1250" {
		t.Errorf("EUR 12.50 reads as %s", asJSON(v))
	}
	if v, _ := valueAt(res.Value(0), "source.type"); v != "managed_accounts" {
		t.Errorf("source.type reads as %v", v)
	}
	var jpy []schema.Problem
	for _, p := range res.Report.Problems {
		if p.Severity == schema.Error {
			jpy = append(jpy, p)
		}
	}
	if len(jpy) != 1 || jpy[0].Row != 5 || jpy[0].Column != "" || jpy[0].Field != "destinationAmount.amount" ||
		!strings.HasPrefix(jpy[0].Message, "the value set for every row: destinationAmount.amount: ") {
		t.Errorf("the JPY row's problems: %+v", jpy)
	}

	users := importOf(t, "users.csv", []byte("name,surname,email\nJane,Doe,jane@example.com\n"), "users")
	um := users.Mapping()
	um.SetValue("dateOfBirth", "1990-05-17")
	if err := users.SetMapping(um); err != nil {
		t.Fatal(err)
	}
	if v, _ := valueAt(users.Build(nil).Value(0), "dateOfBirth"); asJSON(v) != `{"day":17,"month":5,"year":1990}` {
		t.Errorf("dateOfBirth = %s", asJSON(v))
	}

	// A currency set for every row is the currency of the row's amount.
	eur := importOf(t, "eur.csv", []byte("source.id;destination.id;destinationAmount.amount\n1001;2001;12.50\n"), "transfers")
	em := eur.Mapping()
	em.SetValue("destinationAmount.currency", "EUR")
	if err := eur.SetMapping(em); err != nil {
		t.Fatal(err)
	}
	if err := eur.SetSettings(ingest.Settings{Amounts: ingest.Major, Decimal: "."}); err != nil {
		t.Fatal(err)
	}
	if v, _ := valueAt(eur.Build(nil).Value(0), "destinationAmount.amount"); asJSON(v) != "1250" {
		t.Errorf("12.50 with the currency set for every row reads as %s", asJSON(v))
	}
}

// TestAnInvalidValueSetForEveryRowIsNamedAsSuch: the contract's refusal
// comes once in each row, naming the value set for every row rather than
// a cell, in the validator's language.
func TestAnInvalidValueSetForEveryRowIsNamedAsSuch(t *testing.T) {
	for _, tc := range []struct {
		l            lang.Tag
		lead, quoted string
	}{
		{lang.English, "the value set for every row: ", `"11O321"`},
		{lang.German, "der für alle Zeilen festgelegte Wert: ", "„11O321“"},
	} {
		v, err := schema.NewValidatorFor(schema.Builtin(), schema.Options{Language: tc.l})
		if err != nil {
			t.Fatal(err)
		}
		im := bankImport(t, v, map[string]string{"profileId": "11O321", "source.type": "managed_accounts", "destination.type": "managed_cards"})
		res := im.Build(nil)
		if n := len(res.Report.InvalidElements()); n != 3 {
			t.Errorf("%s: %d invalid elements, want 3", tc.l, n)
		}
		for i := range res.Elements {
			ps := res.Problems(i)
			if len(ps) != 1 || !strings.HasPrefix(ps[0].Message, tc.lead+"profileId ") || !strings.Contains(ps[0].Message, tc.quoted) ||
				ps[0].Column != "" || ps[0].Field != "profileId" || ps[0].Row != res.Elements[i].Row {
				t.Errorf("%s: element %d's problems: %+v", tc.l, i, ps)
			}
		}
		if got := im.Values(); len(got) != 3 || got[1].Field != "profileId" || got[1].Error != strings.TrimPrefix(res.Problems(0)[0].Message, tc.lead) {
			t.Errorf("%s: Values() = %+v", tc.l, got)
		}
	}
}

func TestAValueForEveryRowIsForAFieldNoColumnFills(t *testing.T) {
	im := bankImport(t, fixture.Validator(), nil)
	for _, tc := range []struct {
		field, want string
	}{
		{"profilId", `transfers has no field "profilId"`},
		{"source.id", "column A fills source.id"},
		{"destinationAmount", `transfers has no field "destinationAmount"`},
	} {
		m := im.Mapping()
		m.SetValue(tc.field, "1")
		if err := im.SetMapping(m); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("a value for %s: %v, want an error saying %q", tc.field, err, tc.want)
		}
	}
	// Mapping a column to the field takes the place of its value.
	m := im.Mapping()
	m.SetValue("profileId", "110321")
	if err := m.Set(0, "profileId"); err != nil {
		t.Fatal(err)
	}
	if len(m.Values) != 0 {
		t.Errorf("values left: %v", m.Values)
	}
}

// TestAMappingFileKeepsTheValuesSetForEveryRow: saved, loaded and
// applied to the next file; a column of the next file that looks like
// the field by its header is offered rather than mapped over the value.
func TestAMappingFileKeepsTheValuesSetForEveryRow(t *testing.T) {
	im := bankImport(t, fixture.Validator(), map[string]string{"profileId": "110321", "source.type": "managed_accounts"})
	data, err := ingest.MarshalMapping(im.SavedMapping())
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil || string(raw["values"]) != `{
    "profileId": "110321",
    "source.type": "managed_accounts"
  }` {
		t.Fatalf("the mapping file's values: %s", raw["values"])
	}
	saved, err := ingest.UnmarshalMapping(data)
	if err != nil {
		t.Fatal(err)
	}
	next := importing.Import(t, "next.csv", []byte("Quellkonto;Zielkarte;Währung;Betrag;profileId\n1001;2001;EUR;25000;999\n"), fixture.Kind("transfers"))
	if _, err := next.UseSavedMapping(saved); err != nil {
		t.Fatal(err)
	}
	m := next.Mapping()
	if m.Values["profileId"] != "110321" || m.Values["source.type"] != "managed_accounts" {
		t.Errorf("values applied: %v", m.Values)
	}
	if c := m.Columns[4]; c.Field != "" || len(c.Suggestions) == 0 || c.Suggestions[0] != "profileId" {
		t.Errorf("column E: %+v", c)
	}
	if v, _ := valueAt(next.Build(nil).Value(0), "profileId"); v != "110321" {
		t.Errorf("profileId = %v", v)
	}
	// A mapping file's value for a field the kind lacks is refused, named.
	saved.Values["profilId"] = "1"
	if _, err := next.UseSavedMapping(saved); err == nil || !strings.Contains(err.Error(), `"profilId"`) {
		t.Errorf("a value for profilId: %v", err)
	}
}

// TestATemplatesExampleRowIsLeftOutWithAValueSetForEveryRow: a template
// whose optional tag column the operator deleted, the tag given for
// every row instead, still has its example row left out.
func TestATemplatesExampleRowIsLeftOutWithAValueSetForEveryRow(t *testing.T) {
	k := fixture.Kind("transfers")
	var header, example []string
	for _, c := range ingest.TemplateColumns(k, fixture.Validator().Fields(k)) {
		if c.Path != "tag" {
			header, example = append(header, c.Header), append(example, c.Example)
		}
	}
	csv := strings.Join(header, ";") + "\n" + strings.Join(example, ";") + "\n"
	im := importOf(t, "template.csv", []byte(csv), "transfers")
	m := im.Mapping()
	m.SetValue("tag", "payroll-nov")
	if err := im.SetMapping(m); err != nil {
		t.Fatal(err)
	}
	if res := im.Build(nil); len(res.Elements) != 0 || !slices.Contains(importing.Codes(res.Report), "template row 2 example-row") {
		t.Errorf("%d elements, problems %v", len(res.Elements), importing.Codes(res.Report))
	}
}
