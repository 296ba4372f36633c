package ingest_test

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/app/workbook"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/xuri/excelize/v2"
)

// germanTransfers is a German transfers template, open to fill in, and
// the name of its data sheet.
func germanTransfers(t *testing.T, zone string) (*excelize.File, string) {
	t.Helper()
	k := fixture.Kind("transfers")
	data, err := workbook.WriteTemplate(k, fixture.Validator().Fields(k), workbook.Template{Lang: lang.German, TimeZone: zone})
	if err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f, f.GetSheetName(0)
}

// fillTransfer fills row n of a German transfers template: A profile, C
// source id, D source type, F destination id, G destination type, H
// currency, I amount, J execution date.
func fillTransfer(t *testing.T, f *excelize.File, sheet string, n int, sourceType string, amount float64) {
	t.Helper()
	set := func(col string, v any) {
		var err error
		cell := fmt.Sprintf("%s%d", col, n)
		switch x := v.(type) {
		case float64:
			err = f.SetCellFloat(sheet, cell, x, -1, 64)
		default:
			err = f.SetCellValue(sheet, cell, x)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	set("A", "110321")
	set("C", fmt.Sprintf("00%d", n))
	set("D", sourceType)
	set("F", "2001")
	set("G", "Verwaltete Karte")
	set("H", "EUR")
	set("I", amount)
}

func saved(t *testing.T, f *excelize.File) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// openTable reads a workbook's table for kind k as the console does: the
// sheet the kind chooses.
func openTable(t *testing.T, data []byte, k *schema.Kind) (*ingest.File, *ingest.Import) {
	t.Helper()
	file, err := ingest.Open("vorlage.xlsx", data, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tab, err := file.TableFor(context.Background(), "", k, fixture.Validator(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return file, ingest.NewImport(tab, k, fixture.Validator())
}

// TestATemplateSaysHowItReads: a filled template names its kind, its
// sheet, its header row and its amounts in major units itself; nothing
// is left to a question, and the reading says the template says so.
func TestATemplateSaysHowItReads(t *testing.T) {
	f, sheet := germanTransfers(t, "")
	fillTransfer(t, f, sheet, 2, "Verwaltetes Konto", 10.5)
	fillTransfer(t, f, sheet, 3, "Managed account", 1234)
	file, im := openTable(t, saved(t, f), fixture.Kind("transfers"))
	if k := file.TemplateKind(); k == nil || k.ID != "transfers" {
		t.Errorf("the template's kind: %v", k)
	}
	r := im.Reading()
	for name, d := range map[string]reading.Decision{"units": r.Units, "headerRow": r.HeaderRow, "sheet": r.Sheet} {
		if d.How != reading.Declared || d.Undecided {
			t.Errorf("%s: %+v", name, d)
		}
	}
	if r.Units.Value != reading.Major || r.NeedsLook() {
		t.Errorf("units %q, needs a look %v", r.Units.Value, r.NeedsLook())
	}
	var says []string
	for _, st := range reading.Describe(r, "EUR", lang.German) {
		says = append(says, st.Text)
		if st.Marked {
			t.Errorf("%q is marked to look at twice", st.Text)
		}
	}
	if all := strings.Join(says, " | "); !strings.Contains(all, "wie in der Vorlage angegeben") {
		t.Errorf("the reading says: %s", all)
	}
	res := im.Build(nil)
	if !res.Report.Valid() || len(res.Elements) != 2 {
		t.Fatalf("%d elements: %v", len(res.Elements), res.Report.Problems)
	}
	want := []string{
		`{"requestBody":{"destination":{"id":"2001","type":"managed_cards"},"destinationAmount":{"amount":1050,"currency":"EUR"},"profileId":"110321","source":{"id":"002","type":"managed_accounts"}}}`,
		`{"requestBody":{"destination":{"id":"2001","type":"managed_cards"},"destinationAmount":{"amount":123400,"currency":"EUR"},"profileId":"110321","source":{"id":"003","type":"managed_accounts"}}}`,
	}
	for i, w := range want {
		if got := asJSON(res.Value(i)); got != w {
			t.Errorf("element %d:\n got %s\nwant %s", i, got, w)
		}
	}
}

// TestATemplateReadsAfterTheOperatorReworksIt: rows sorted, a title row
// put above the header, a column of notes added and the sheet renamed,
// the template still reads as its mark says.
func TestATemplateReadsAfterTheOperatorReworksIt(t *testing.T) {
	f, sheet := germanTransfers(t, "")
	fillTransfer(t, f, sheet, 2, "Verwaltetes Konto", 99.99)
	fillTransfer(t, f, sheet, 3, "Verwaltete Karte", 0.5)
	if err := f.InsertRows(sheet, 1, 2); err != nil {
		t.Fatal(err)
	}
	f.SetCellStr(sheet, "A1", "Gehälter Dezember")
	f.SetCellStr(sheet, "L3", "Notiz")
	f.SetCellStr(sheet, "L4", "Bonus")
	if err := f.SetSheetName(sheet, "Dezember"); err != nil {
		t.Fatal(err)
	}
	_, im := openTable(t, saved(t, f), fixture.Kind("transfers"))
	if m := im.Mapping(); m.HeaderRow != 3 || len(m.Mapped()) != 10 {
		t.Errorf("header row %d, %d columns mapped: %+v", m.HeaderRow, len(m.Mapped()), m.Columns)
	}
	r := im.Reading()
	if r.Units.How != reading.Declared || r.Units.Value != reading.Major || r.HeaderRow.How != reading.Declared {
		t.Errorf("units %+v, header %+v", r.Units, r.HeaderRow)
	}
	res := im.Build(nil)
	if len(res.Elements) != 2 || asJSON(res.Value(1)) != `{"requestBody":{"destination":{"id":"2001","type":"managed_cards"},"destinationAmount":{"amount":50,"currency":"EUR"},"profileId":"110321","source":{"id":"003","type":"managed_cards"}}}` {
		t.Errorf("%d elements, the second %s", len(res.Elements), asJSON(res.Value(1)))
	}
}

// TestATemplatesChoiceTakesOnlyItsWords: a choice column takes the
// API's value or its words in any language; another word is an error at
// its cell that names the choices in the reader's language, never a
// value sent on.
func TestATemplatesChoiceTakesOnlyItsWords(t *testing.T) {
	f, sheet := germanTransfers(t, "")
	fillTransfer(t, f, sheet, 2, "compte géré", 1)
	fillTransfer(t, f, sheet, 3, "managed_cards", 1)
	fillTransfer(t, f, sheet, 4, "Konto", 1)
	k := fixture.Kind("transfers")
	v, err := schema.NewValidatorFor(schema.Builtin(), schema.Options{Language: lang.German})
	if err != nil {
		t.Fatal(err)
	}
	file, err := ingest.Open("vorlage.xlsx", saved(t, f), ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tab, err := file.TableFor(context.Background(), "", k, v, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := ingest.NewImport(tab, k, v).Build(nil)
	var problems []string
	for _, p := range res.Report.Problems {
		problems = append(problems, ingest.Where(p)+" "+p.Code+" "+p.Message)
	}
	want := `'Umbuchungen erstellen'!D4 choice Quellentyp (Spalte D): „Konto“ ist keine der Auswahlmöglichkeiten: Verwaltete Karte, Verwaltetes Konto`
	if len(problems) != 1 || problems[0] != want {
		t.Errorf("problems:\n%s\nwant\n%s", strings.Join(problems, "\n"), want)
	}
	for i, w := range []string{"managed_accounts", "managed_cards"} {
		if got, _ := valueAt(res.Value(i), "source.type"); got != w {
			t.Errorf("element %d: source.type %v", i, got)
		}
	}
}

// TestChoicesReadInWordsInAnyFile: an operator's own file may write a
// choice in words too; a word that is none of them is left for the
// validator, as before.
func TestChoicesReadInWordsInAnyFile(t *testing.T) {
	csv := "profileId,source.id,source.type,destination.id,destination.type,currency,amount\n" +
		"1,10,Verwaltetes Konto,20,carte gérée,EUR,100\n" +
		"1,10,Konto,20,managed_cards,EUR,100\n"
	res := importOf(t, "eigene.csv", []byte(csv), "transfers").Build(nil)
	if got := asJSON(res.Value(0)); !strings.Contains(got, `"source":{"id":"10","type":"managed_accounts"}`) || !strings.Contains(got, `"destination":{"id":"20","type":"managed_cards"}`) {
		t.Errorf("element %s", got)
	}
	var codes []string
	for _, p := range res.Report.Problems {
		codes = append(codes, ingest.Where(p)+" "+p.Code)
	}
	if !slices.Equal(codes, []string{"eigene!C3 enum"}) {
		t.Errorf("problems %v", codes)
	}
}

// TestATemplatesTimeZone: a template written for a time zone reads its
// dates in it, as it says; one written without asks for the zone, as
// any file does, until the operator chooses one.
func TestATemplatesTimeZone(t *testing.T) {
	for _, zone := range []string{"Europe/Berlin", ""} {
		f, sheet := germanTransfers(t, zone)
		fillTransfer(t, f, sheet, 2, "Verwaltetes Konto", 10)
		// 15.12.2026 14:30, as a date cell of the column's format.
		if err := f.SetCellFloat(sheet, "J2", 46371+14.5/24, -1, 64); err != nil {
			t.Fatal(err)
		}
		_, im := openTable(t, saved(t, f), fixture.Kind("transfers"))
		r := im.Reading()
		switch zone {
		case "":
			if !r.TimeZone.Undecided || !r.NeedsLook() {
				t.Errorf("no zone: %+v", r.TimeZone)
			}
			s := im.Settings()
			s.TimeZone = "Europe/Paris"
			if err := im.SetSettings(s, "timeZone"); err != nil {
				t.Fatal(err)
			}
			if r := im.Reading(); r.TimeZone.How != reading.Chosen || r.TimeZone.Value != "Europe/Paris" || r.NeedsLook() {
				t.Errorf("zone chosen: %+v", r.TimeZone)
			}
		default:
			if r.TimeZone.How != reading.Declared || r.TimeZone.Value != zone || r.NeedsLook() {
				t.Errorf("%s: %+v", zone, r.TimeZone)
			}
			var says string
			for _, st := range reading.Describe(r, "EUR", lang.German) {
				if st.Name == "timeZone" {
					says = st.Text
				}
			}
			if !strings.Contains(says, "Europe/Berlin") || !strings.Contains(says, "wie in der Vorlage angegeben") {
				t.Errorf("the zone is told: %q", says)
			}
		}
		res := im.Build(nil)
		// 15.12.2026 14:30 is 13:30 UTC in Berlin and in Paris alike.
		if got, _ := valueAt(res.Value(0), "scheduledTimestamp"); got != "1797341400000" {
			t.Errorf("zone %q: scheduledTimestamp %v, problems %v", zone, got, res.Report.Problems)
		}
	}
}

// TestAnOlderTemplatesExampleRowIsNotCounted: a template of the API's
// own form (a CSV one, or a workbook written before templates were in
// words) holds an example row, which the build leaves out; the rows a
// build will give are counted without it ("Validate 51 rows" for 50
// transfers).
func TestAnOlderTemplatesExampleRowIsNotCounted(t *testing.T) {
	k := fixture.Kind("transfers")
	data, err := workbook.TemplateCSV(k, fixture.Validator().Fields(k))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		data = append(data, fmt.Sprintf("110321,,%d,managed_accounts,,2,managed_cards,EUR,1050,\n", 1000+i)...)
	}
	im := importOf(t, "vorlage.csv", data, "transfers")
	res := im.Build(nil)
	if im.DataRows() != 50 || len(res.Elements) != 50 {
		t.Errorf("%d data rows, %d elements", im.DataRows(), len(res.Elements))
	}
}

// TestATemplatesHeadersMapWithoutItsMark: rows copied out of a template
// into a file of the operator's own, without the template's mark, keep
// its headers, which map by themselves in every language, but where a
// word could mean several fields (an outgoing wire's beneficiary has
// several forms, each with an account and a reference): that stays the
// operator's choice.
func TestATemplatesHeadersMapWithoutItsMark(t *testing.T) {
	for _, l := range lang.All {
		for _, k := range schema.Kinds() {
			if k.ID == "outgoing_wire_transfers" {
				continue
			}
			cols := ingest.TemplateColumns(k, fixture.Validator().Fields(k))
			words := ingest.TemplateWords(cols, l)
			csv := strings.Join(words, ";") + "\n" + strings.Repeat("x;", len(words)) + "\n"
			m := importOf(t, "kopie.csv", []byte(csv), k.ID).Mapping()
			for i, c := range m.Columns {
				if i < len(cols) && c.Field != cols[i].Path {
					t.Errorf("%s %s: %q maps to %q, want %s", l, k.ID, c.Header, c.Field, cols[i].Path)
				}
			}
		}
	}
}

// TestATemplatesHeaderCopiedMapsOnce: a template's column copied beside
// itself, header and all, fills its field once; the copy is the
// operator's to map.
func TestATemplatesHeaderCopiedMapsOnce(t *testing.T) {
	f, sheet := germanTransfers(t, "")
	fillTransfer(t, f, sheet, 2, "Verwaltetes Konto", 10)
	f.SetCellStr(sheet, "L1", "Betrag *")
	f.SetCellFloat(sheet, "L2", 20, -1, 64)
	_, im := openTable(t, saved(t, f), fixture.Kind("transfers"))
	var amounts []string
	for _, c := range im.Mapping().Columns {
		if c.Field == "destinationAmount.amount" {
			amounts = append(amounts, c.Letter)
		}
	}
	if !slices.Equal(amounts, []string{"I"}) {
		t.Errorf("the amount is filled by %v", amounts)
	}
}
