package jobs_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/lang/langtest"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/workbook"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/xuri/excelize/v2"
)

// A trigger is a file, and how it is read, that makes the worker say
// problems of each of codes, and statements of how it reads.
type trigger struct {
	name string
	// codes are the problems it must raise.
	codes []string
	// file and data are the file opened, kind the kind it is read as
	// ("" suggests it).
	file string
	data []byte
	kind string
	// settings, values and columns are chosen before the file is built;
	// chosen names the settings the operator chose.
	settings *wire.Settings
	chosen   []string
	values   []wire.FieldValue
	columns  []wire.ColumnChoice
	// mapping is a mapping file loaded with it; sheet the sheet chosen.
	mapping string
	sheet   string
	// limits are amount limits, typed as the language writes numbers.
	limits []string
	// contract replaces the built-in contract's schemas of some kinds.
	contract map[string]string
	// run, when set, is the trigger: in language l, it returns what the
	// operator reads and the codes raised.
	run func(t *testing.T, l string) ([]string, map[string]bool)
}

// germanHeader heads a German bank export of transfers.
const germanHeader = "Profil-ID;Quellkonto;Quellkontotyp;Empfängerkonto;Empfängerkontotyp;Betrag;Währung;Verwendungszweck;Ausführungsdatum;Notiz\n"

// germanRow is one transfer of the German export.
func germanRow(profile, source, sourceType, dest, amount, currency, reference, date string) string {
	return strings.Join([]string{profile, source, sourceType, dest, "managed_accounts", amount, currency, reference, date, ""}, ";") + "\n"
}

// germanMajor reads the German export in major units, with its commas.
var germanMajor = &wire.Settings{Amounts: wire.AmountsMajor, Decimal: ",", Group: ".", DateOrder: ingest.DMY}

// englishTriggers are the files that make the reader, the detectors, the
// validator and the worker say every sort of problem, reading and refusal
// they have.
func englishTriggers(t *testing.T) []trigger {
	return []trigger{
		{name: "a German bank export full of problems", file: "export.csv", kind: "transfers", settings: germanMajor,
			chosen: []string{"amounts", "decimal", "group", "dates"}, limits: []string{"EUR:500,00"},
			codes: []string{"amount", "amount-currency", "iso-4217-currency", "pattern", "required", "time-zone", "timestamp", "date", "enum",
				"duplicate-element", "unmapped-column", "left-out-row", "amount-outlier", "amount-above-limit", "id-length", "non-positive-amount"},
			data: []byte(germanHeader +
				germanRow("110321", "1001", "managed_accounts", "2001", "10,00", "EUR", "Miete", "15.12.2026") +
				germanRow("110321", "1001", "managed_accounts", "2001", "10,00", "EUR", "Miete", "15.12.2026") +
				germanRow("110321", "1001", "managed_accounts", "2002", "10,00", "EUR", "Strom", "15.12.2026") +
				germanRow("110321", "1001", "managed_accounts", "2003", "1.000,00", "EUR", "Kaution", "15.12.2026") +
				germanRow("110321", "1001", "managed_accounts", "20004", "0,00", "EUR", "Null", "15.12.2026") +
				germanRow("110321", "mg1", "konto", "2005", "abc", "EUR", "Miete", "45.13.2026") +
				germanRow("110321", "1001", "managed_accounts", "2006", "12,345", "EUD", "x", "15.12.2026 25:00") +
				germanRow("", "1001", "managed_accounts", "", "10,50", "EUR", "Strom", "morgen") +
				";;;;;;;;;nur eine Notiz\n" +
				"Summe;;;;;1.042,00;EUR;;;\n")},
		{name: "a German list whose total row differs from its rows", file: "summe.csv", kind: "transfers", settings: germanMajor,
			chosen: []string{"amounts", "decimal", "group"}, codes: []string{"total-differs"},
			data: []byte(germanHeader +
				germanRow("110321", "1001", "managed_accounts", "2001", "1.234,56", "EUR", "Miete", "") +
				germanRow("110321", "1001", "managed_accounts", "2002", "25.190,25", "EUR", "Kaution", "") +
				germanRow("110321", "1001", "managed_accounts", "2003", "99,00", "USD", "Strom", "") +
				"Summe;;;;;26.424,18;EUR;;;\nSumme;;;;;98,00;USD;;;\n")},
		{name: "dates in a time zone", file: "termine.csv", kind: "transfers", settings: &wire.Settings{Amounts: wire.AmountsMajor, Decimal: ",", Group: ".", DateOrder: ingest.DMY, TimeZone: "Europe/Berlin"},
			chosen: []string{"timeZone"},
			codes:  []string{"time-zone-gap", "time-zone-overlap", "scheduled-in-past", "scheduled-far-ahead", "timestamp-in-seconds"},
			data: []byte(germanHeader +
				germanRow("110321", "1001", "managed_accounts", "2001", "10,00", "EUR", "Miete", "29.03.2026 02:30") +
				germanRow("110321", "1001", "managed_accounts", "2002", "10,00", "EUR", "Miete", "25.10.2026 02:30") +
				germanRow("110321", "1001", "managed_accounts", "2003", "10,00", "EUR", "Miete", "01.01.2020") +
				germanRow("110321", "1001", "managed_accounts", "2004", "10,00", "EUR", "Miete", "01.01.2040") +
				germanRow("110321", "1001", "managed_accounts", "2005", "10,00", "EUR", "Miete", "1893456000") +
				germanRow("110321", "1001", "managed_accounts", "2006", "10,00", "EUR", "Miete", "15.12.2026 14:30"))},
		{name: "dates whose order the file does not say", file: "dates.csv", kind: "users",
			codes: []string{"date"},
			data:  []byte("name;surname;email;dateOfBirth\nAda;Lovelace;ada@example.com;03/04/1985\nGrace;Hopper;grace@example.com;25/12/1990\nAlan;Turing;alan@example.com;12/23/1990\n")},
		{name: "amounts whose decimal separator the file does not say", file: "pay.csv", kind: "transfers",
			codes: []string{"amount"},
			data: []byte("profileId,source.type,source.id,destination.type,destination.id,destinationAmount.currency,destinationAmount\n" +
				"110321,managed_accounts,1001,managed_cards,2001,EUR,\"1,500\"\n110321,managed_accounts,1001,managed_cards,2002,EUR,\"2,250\"\n")},
		{name: "a workbook of cells that cannot be read as they are", file: "zellen.xlsx", kind: "transfers",
			codes: []string{"merged-cell", "formula-without-value", "spreadsheet-error", "formula", "hidden-row", "lost-digits", "lost-leading-zeros", "date-not-allowed"},
			data:  cellsWorkbook(t, false)},
		{name: "a hidden sheet chosen", file: "versteckt.xlsx", kind: "transfers", sheet: "Zahlungen", codes: []string{"hidden-sheet"},
			data: cellsWorkbook(t, true)},
		{name: "amounts shown with decimals under the API's own header", file: "einheiten.xlsx", kind: "transfers",
			codes: []string{"amount-units"},
			data:  unitsWorkbook(t)},
		{name: "a text file named as a workbook", file: "export.xlsx", kind: "transfers", codes: []string{"file"},
			data: []byte("profileId;source.type;source.id;destination.type;destination.id;destinationAmount.currency;destinationAmount.amount\n110321;managed_accounts;1001;managed_cards;2001;EUR;1050\n")},
		{name: "a file of headers only", file: "leer.csv", kind: "transfers", codes: []string{"empty"},
			data: []byte("profileId;source.type;source.id;destination.type;destination.id;destinationAmount.currency;destinationAmount.amount\n")},
		{name: "a damaged workbook", file: "kaputt.xlsx", codes: []string{"unreadable"}, data: []byte("PK\x03\x04 kaputt")},
		{name: "JSON that does not parse", file: "kaputt.json", kind: "transfers", codes: []string{"not-json"}, data: []byte(`[{"requestBody": {"profileId": "1",}]`)},
		{name: "JSON that is not a list of elements", file: "objekt.json", kind: "transfers", codes: []string{"not-an-array"}, data: []byte(`{"requestBody": {}}`)},
		{name: "a request body of transfers", file: "body.json", kind: "transfers",
			codes: []string{"type", "min-length", "max-length", "unknown-field", "duplicate-key"},
			data: []byte(`[{"requestBody": {"profileId": "110321", "profileId": "110322", "source": {"type": "managed_accounts", "id": "1"}, "destination": {"type": "managed_cards", "id": "2"}, "destinationAmount": {"currency": "EU", "amount": "abc"}, "description": "` +
				strings.Repeat("x", 300) + `", "notiz": "?"}}]`)},
		{name: "a request body of users", file: "users.json", kind: "users", codes: []string{"format", "minimum", "maximum", "min-length"},
			data: []byte(`[{"requestBody": {"name": "", "surname": "Lovelace", "email": "ada", "dateOfBirth": {"year": 1800, "month": 1, "day": 1}}},` +
				`{"requestBody": {"name": "Grace", "surname": "Hopper", "email": "grace@example.org", "dateOfBirth": {"year": 2200, "month": 1, "day": 1}}}]`)},
		{name: "a request body of wire transfers", file: "wires.json", kind: "outgoing_wire_transfers",
			codes: []string{"one-of", "sepa-reference", "swift-purpose-reference", "faster-payments-reference", "faster-payments-name", "faster-payments-account-type", "bic-for-non-iban"},
			data:  wiresBody(t)},
		{name: "card spend rules", file: "rules.json", kind: "card_spend_rules", codes: []string{"no-change", "min-above-max", "negative-limit", "max-items"},
			data: spendRulesBody(t)},
		{name: "card spend rules in a sheet", file: "regeln.csv", kind: "card_spend_rules", codes: []string{"not-a-boolean"},
			data: templateCSV(t, "card_spend_rules", map[string]string{"allowAtm": "vielleicht"})},
		{name: "an old template's example row", file: "karten.csv", kind: "card_blocks", codes: []string{"example-row"},
			data: templateCSV(t, "card_blocks", nil)},
		{name: "a template with a word its list does not hold", file: "vorlage.xlsx", kind: "transfers", codes: []string{"choice"},
			data: germanTemplate(t)},
		{name: "a file too large for one bulk, with too many problems to list", file: "viele.json", kind: "transfers",
			codes: []string{"too-many-elements", "problems-cut", "unknown-field"}, data: manyElements()},
		{name: "a contract an operator loads", file: "eigene.csv", kind: "transfers", contract: map[string]string{"transfers": ownContract},
			codes: []string{"const", "not", "required", "multiple-of", "not-a-number", "not-a-whole-number"},
			data:  []byte("profileId;art;anteil;anzahl;teiler;sperre\n1;b;x;1,5;7;ja\n1;a;0,5;2;10;\n")},
		{name: "a request body under a contract an operator loads", file: "eigene.json", kind: "transfers", contract: map[string]string{"transfers": ownContract},
			codes: []string{"min-items", "unique-items", "any-of", "minimum", "invalid"},
			data:  []byte(`[{"requestBody": {"profileId": "1", "liste": [], "anteil": 0, "form": 3}}, {"requestBody": {"profileId": "1", "liste": ["a", "a"], "extra": {}}}]`)},
		{name: "a mapping file for other columns", file: "export2.csv", kind: "transfers", codes: []string{"file"},
			mapping: `{"kind":"transfers","headerRow":1,"columns":[{"column":"A","header":"Profil-ID","field":"profileId"},{"column":"K","header":"Gegenkonto","field":"destination.id"}]}`,
			data:    []byte(germanHeader + germanRow("110321", "1001", "managed_accounts", "2001", "10,00", "EUR", "Miete", "15.12.2026"))},
		{name: "files submitted before", run: repeatedSubmission},
	}
}

// notTriggered are the codes no trigger raises, and why.
var notTriggered = map[string]string{
	"no-contract": "a contract without the kind's schema is refused when it is loaded",
	"unreadable-operation": "an operation the API answers for a bulk's review, not a file's: " +
		"app/bulkreview says it in the review's language",
}

// TestNoEnglishInGermanOrFrench triggers every sort of problem the
// reader, the detectors, the validator and the worker report, every
// statement of how a file reads and every refusal of a submission, in
// German and in French, and fails on an English word in what the operator
// reads, on a number written the English way and on an escape code. Every
// problem code the code can report must have a trigger.
func TestNoEnglishInGermanOrFrench(t *testing.T) {
	triggers := englishTriggers(t)
	seen := map[string]bool{}
	for _, l := range []string{"de", "fr"} {
		for _, tr := range triggers {
			t.Run(l+"/"+tr.name, func(t *testing.T) {
				var texts []string
				var codes map[string]bool
				if tr.run != nil {
					texts, codes = tr.run(t, l)
				} else {
					h := newHarness(t)
					set := wire.SetContract{Lang: l}
					if tr.contract != nil {
						set.Source = &wire.ContractSource{Name: "eigen.yaml", Schemas: map[string]json.RawMessage{}}
						for k, s := range tr.contract {
							set.Source.Schemas[k] = json.RawMessage(s)
						}
					}
					h.contract(set)
					texts, codes = h.readAll(tr, l)
				}
				for _, c := range tr.codes {
					if !codes[c] {
						t.Errorf("no %s problem; it raised %v", c, slices.Sorted(maps.Keys(codes)))
					}
				}
				for c := range codes {
					seen[c] = true
				}
				for _, s := range texts {
					// A field list the contract's words give: name, account,
					// address are paths.
					if words := langtest.English(s, "name, account, address"); len(words) > 0 {
						t.Errorf("English %q in %q", words, s)
					}
					if bad := langtest.NotWritten(s, l); bad != "" {
						t.Errorf("%q in %q", bad, s)
					}
				}
			})
		}
	}
	all, err := langtest.ProblemCodes("../../ingest", "../../../schema", "../../review", "../../bulkreview", ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range schema.TheOverlay().Entries {
		if e.Severity == schema.Advise {
			all[e.ID] = "overlay.json"
		}
	}
	for _, c := range slices.Sorted(maps.Keys(all)) {
		if _, why := notTriggered[c]; !seen[c] && !why {
			t.Errorf("no trigger raises the problem %s (%s): add one to englishTriggers", c, all[c])
		}
	}
}

// readAll opens the trigger's file, reads it as it asks, builds it and
// plans its submission, and returns every text the operator reads on the
// way and the codes of the problems raised.
func (h *harness) readAll(tr trigger, l string) ([]string, map[string]bool) {
	h.t.Helper()
	var texts []string
	codes := map[string]bool{}
	id := h.send(wire.JobOpen, wire.Open{FileName: tr.file, Kind: tr.kind, Auto: tr.settings == nil && tr.mapping == "" && tr.sheet == ""}, tr.data)
	_, m := h.wait(id)
	if m.Type == wire.TypeError {
		var e wire.Error
		json.Unmarshal(m.Body, &e)
		codes[e.Code] = true
		return append(texts, e.Message), codes
	}
	var p wire.Prepared
	if err := json.Unmarshal(m.Body, &p); err != nil {
		h.t.Fatal(err)
	}
	texts = append(texts, operatorTexts(p)...)
	if tr.settings != nil || tr.values != nil || tr.columns != nil || tr.mapping != "" || tr.sheet != "" {
		p = h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: p.Document, Settings: tr.settings, Chosen: tr.chosen,
			Values: tr.values, Columns: tr.columns, SavedMapping: tr.mapping, Sheet: tr.sheet}, nil))
		texts = append(texts, operatorTexts(p)...)
	}
	if !p.Request && p.Kind == "" {
		return texts, codes
	}
	if tr.limits != nil {
		var set wire.AmountLimitsSet
		h.result(h.send(wire.JobAmountLimits, wire.AmountLimits{Limits: tr.limits, Lang: l}, nil), &set)
		texts = append(texts, set.Limits...)
	}
	var s wire.Summary
	h.result(h.send(wire.JobBuild, wire.Build{Document: p.Document}, nil), &s)
	texts = append(texts, operatorTexts(s)...)
	var all wire.Problems
	h.result(h.send(wire.JobProblems, wire.ProblemsPage{Document: p.Document, Limit: 200_000}, nil), &all)
	for i, pr := range all.Problems {
		codes[pr.Code] = true
		if i < 2000 {
			texts = append(texts, pr.Message)
		}
	}
	for _, req := range []wire.PrepareSubmission{{Document: p.Document}, {Document: p.Document, ValidOnly: true}} {
		_, m := h.wait(h.send(wire.JobPrepareSubmission, req, nil))
		if m.Type == wire.TypeResult {
			var c wire.Confirmation
			json.Unmarshal(m.Body, &c)
			texts = append(texts, operatorTexts(c)...)
		}
	}
	return texts, codes
}

// repeatedSubmission submits a file, then prepares the same elements
// again: in the same browser, whose journal knows the earlier submission;
// in another, where the API's record names the earlier bulk of each
// element; and without a connection, where only the journal is checked.
func repeatedSubmission(t *testing.T, l string) ([]string, map[string]bool) {
	api := fakeapi.New()
	first := newHarness(t, withAPI(api))
	first.contract(wire.SetContract{Lang: l})
	doc := first.load(fixture.Transfers(5))
	p := first.prepare(wire.PrepareSubmission{Document: doc.Document, Connection: &conn})
	if got := first.submitAnswering(p.Plan, ""); got.Failure != nil {
		t.Fatalf("first submission: %+v", got.Failure)
	}
	texts := operatorTexts(first.prepare(wire.PrepareSubmission{Document: doc.Document, Connection: &conn}))
	other := newHarness(t, withAPI(api))
	other.contract(wire.SetContract{Lang: l})
	doc = other.load(fixture.Transfers(5))
	p = other.prepare(wire.PrepareSubmission{Document: doc.Document, Connection: &conn})
	if p.Repeats == nil || p.Repeats.Count == 0 {
		t.Errorf("no repeats: %+v", p)
	}
	texts = append(texts, operatorTexts(p)...)
	texts = append(texts, operatorTexts(other.prepare(wire.PrepareSubmission{Document: doc.Document}))...)
	return texts, map[string]bool{}
}

// textKeys are the keys of the worker's answers whose strings are words
// for the operator, rather than the file's values, paths or codes.
var textKeys = map[string]bool{"message": true, "messages": true, "text": true, "notes": true, "readAs": true,
	"error": true, "blocked": true, "note": true, "schedule": true, "problems": true, "title": true, "parsed": true,
	"rules": true, "words": true, "warning": true, "recordError": true, "detail": true}

// operatorTexts collects the words for the operator in an answer of the
// worker.
func operatorTexts(v any) []string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	var tree any
	if err := json.Unmarshal(b, &tree); err != nil {
		panic(err)
	}
	var out []string
	var walk func(key string, v any)
	walk = func(key string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				// Totals are written the English way for the page, which
				// writes them in the console's language.
				if k != "totals" && k != "sources" {
					walk(k, c)
				}
			}
		case []any:
			for _, c := range x {
				walk(key, c)
			}
		case string:
			if textKeys[key] && strings.TrimSpace(x) != "" {
				out = append(out, x)
			}
		}
	}
	walk("", tree)
	return out
}

// cellsWorkbook is a workbook of transfers whose cells are merged, hold
// formulas that were never calculated or show an error, numbers that lost
// their zeros or digits, a date where digits belong; its sheet and a row
// are hidden.
func cellsWorkbook(t *testing.T, hidden bool) []byte {
	f := excelize.NewFile()
	defer f.Close()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(f.SetSheetName("Sheet1", "Zahlungen"))
	rows := [][]any{
		{"profileId", "source.type", "source.id", "destination.type", "destination.id", "destinationAmount.currency", "destinationAmount.amount", "tag"},
		{"110321", "managed_accounts", "00123", "managed_cards", "2001", "EUR", 1050, "x"},
		{"110321", "managed_accounts", "00124", "managed_cards", "2002", "EUR", 1050, "b"},
		{"110321", "managed_accounts", 125, "managed_cards", 12345678901234567, "EUR", 1050, "c"},
		{"110321", "managed_accounts", "00126", "managed_cards", "2004", "EUR", nil, "d"},
		{"110321", "managed_accounts", "00127", "managed_cards", "ERR", "EUR", 1050, "e"},
		{"110321", "managed_accounts", "00128", "managed_cards", 45000, "EUR", 1050, "f"},
	}
	for i, r := range rows {
		must(f.SetSheetRow("Zahlungen", fmt.Sprintf("A%d", i+1), &r))
	}
	must(f.MergeCell("Zahlungen", "A2", "A3"))
	must(f.SetCellFormula("Zahlungen", "G5", "=1000+50"))
	date, err := f.NewStyle(&excelize.Style{NumFmt: 14})
	must(err)
	must(f.SetCellStyle("Zahlungen", "E7", "E7", date))
	must(f.SetRowVisible("Zahlungen", 3, false))
	_, err = f.NewSheet("Deckblatt")
	must(err)
	must(f.SetCellValue("Deckblatt", "A1", "Zahlungen Dezember"))
	if hidden {
		cover, err := f.GetSheetIndex("Deckblatt")
		must(err)
		f.SetActiveSheet(cover)
		must(f.SetSheetVisible("Zahlungen", false))
	}
	var buf bytes.Buffer
	_, err = f.WriteTo(&buf)
	must(err)
	// excelize writes no error cells, nor a formula's value: E6 is made
	// an error, H2 a formula with the value it was calculated to.
	return patchZip(t, buf.Bytes(), "xl/worksheets/sheet1.xml", func(s string) string {
		cell := func(ref, xml string) {
			i := strings.Index(s, `<c r="`+ref+`"`)
			j := strings.Index(s[i:], "</c>") + i + len("</c>")
			s = s[:i] + xml + s[j:]
		}
		cell("E6", `<c r="E6" t="e"><v>#N/A</v></c>`)
		cell("H2", `<c r="H2" t="str"><f>"a"&amp;"b"</f><v>ab</v></c>`)
		return s
	})
}

// unitsWorkbook holds whole amounts under the API's own header, shown with
// two decimals: minor or major units, the file does not say.
func unitsWorkbook(t *testing.T) []byte {
	f := excelize.NewFile()
	defer f.Close()
	rows := [][]any{
		{"profileId", "source.type", "source.id", "destination.type", "destination.id", "destinationAmount.currency", "destinationAmount.amount"},
		{"110321", "managed_accounts", "1001", "managed_cards", "2001", "EUR", 1050},
		{"110321", "managed_accounts", "1001", "managed_cards", "2002", "EUR", 2500},
	}
	for i, r := range rows {
		if err := f.SetSheetRow("Sheet1", fmt.Sprintf("A%d", i+1), &r); err != nil {
			t.Fatal(err)
		}
	}
	style, err := f.NewStyle(&excelize.Style{NumFmt: 4})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.SetCellStyle("Sheet1", "G2", "G3", style); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// patchZip changes one part of a zip archive.
func patchZip(t *testing.T, data []byte, part string, change func(string) string) []byte {
	r, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	w := zip.NewWriter(&out)
	for _, f := range r.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if f.Name == part {
			b = []byte(change(string(b)))
		}
		fw, err := w.Create(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(b)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// seedElements are the contract's valid elements of a kind, which the
// validator's own tests start from.
func seedElements(t *testing.T, kind string) []map[string]any {
	data, err := os.ReadFile("../../../schema/testdata/valid/" + kind + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// body is the elements' request body.
func body(t *testing.T, elements ...map[string]any) []byte {
	b, err := json.Marshal(elements)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// requestBody is an element's requestBody, to change.
func requestBody(e map[string]any) map[string]any { return e["requestBody"].(map[string]any) }

// wiresBody holds wire transfers that break the documentation's rules of
// each payment scheme, and one whose beneficiary has no known shape.
func wiresBody(t *testing.T) []byte {
	s := seedElements(t, "outgoing_wire_transfers")
	sepa, swift, fp, legacyFP := s[0], s[2], s[4], s[8]
	delete(requestBody(sepa), "description")
	delete(requestBody(swift), "purpose")
	delete(requestBody(swift)["destinationBeneficiary"].(map[string]any), "bankIdentifierCode")
	requestBody(fp)["description"] = strings.Repeat("x", 19)
	requestBody(fp)["destinationBeneficiary"].(map[string]any)["name"] = "O'Brien"
	delete(requestBody(legacyFP)["destinationBeneficiary"].(map[string]any), "type")
	none := seedElements(t, "outgoing_wire_transfers")[1]
	requestBody(none)["destinationBeneficiary"] = map[string]any{"name": "Niemand"}
	return body(t, sepa, swift, fp, legacyFP, none)
}

// spendRulesBody holds card spend rules that change nothing, let no
// payment through, limit to a negative amount, or list too many
// categories.
func spendRulesBody(t *testing.T) []byte {
	s := seedElements(t, "card_spend_rules")
	empty, minMax, negative, many := s[1], seedElements(t, "card_spend_rules")[0], seedElements(t, "card_spend_rules")[0], seedElements(t, "card_spend_rules")[0]
	empty["requestBody"] = map[string]any{}
	requestBody(minMax)["minTransactionAmount"] = 50000
	limits := requestBody(negative)["spendLimit"].([]any)
	limits[0].(map[string]any)["value"].(map[string]any)["amount"] = -1
	var categories []any
	for i := range 201 {
		categories = append(categories, fmt.Sprintf("%04d", 5000+i))
	}
	requestBody(many)["allowedMerchantCategories"] = categories
	return body(t, empty, minMax, negative, many)
}

// templateCSV is a kind's template as CSV: its header and example row,
// the example's values changed as set says.
func templateCSV(t *testing.T, kind string, set map[string]string) []byte {
	k := fixture.Kind(kind)
	var header, row []string
	for _, c := range ingest.TemplateColumns(k, fixture.Validator().Fields(k)) {
		v := c.Example
		if s, ok := set[c.Path]; ok {
			v = s
		}
		header, row = append(header, c.Header), append(row, v)
	}
	return []byte(strings.Join(header, ";") + "\n" + strings.Join(row, ";") + "\n")
}

// germanTemplate is the German template of transfers, filled in, with a
// word its source type's list does not hold.
func germanTemplate(t *testing.T) []byte {
	k := fixture.Kind("transfers")
	data, err := workbook.WriteTemplate(k, fixture.Validator().Fields(k), workbook.Template{Lang: lang.German})
	if err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sheet := f.GetSheetName(0)
	header, err := f.GetRows(sheet)
	if err != nil || len(header) == 0 {
		t.Fatalf("the template's header: %v", err)
	}
	values := map[string]any{"profileId": "110321", "source.type": "Konto", "source.id": "1001", "destination.type": "Verwaltete Karte",
		"destination.id": "2001", "destinationAmount.currency": "EUR", "destinationAmount.amount": 10.5}
	cols := ingest.TemplateColumns(k, fixture.Validator().Fields(k))
	for i, c := range cols {
		if v, ok := values[c.Path]; ok {
			cell, _ := excelize.CoordinatesToCellName(i+1, 2)
			if err := f.SetCellValue(sheet, cell, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// manyElements is a request body of more elements than a bulk takes,
// each with more fields than the contract knows: more problems than are
// listed.
func manyElements() []byte {
	var b bytes.Buffer
	b.WriteString("[")
	for i := range 10_001 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"requestBody":{"profileId":"110321","source":{"type":"managed_accounts","id":"1"},"destination":{"type":"managed_cards","id":"2"},"destinationAmount":{"currency":"EUR","amount":100}`)
		for k := range 11 {
			fmt.Fprintf(&b, `,"x%d":1`, k)
		}
		b.WriteString("}}")
	}
	b.WriteString("]")
	return b.Bytes()
}

// ownContract is a contract of transfers an operator might load: its
// rules use keywords the built-in contract does not.
const ownContract = `{"type": "object", "required": ["requestBody"], "properties": {"requestBody": {"type": "object", "properties": {
	"profileId": {"type": "string"},
	"art": {"type": "string", "const": "a"},
	"anteil": {"type": "number", "exclusiveMinimum": 0},
	"anzahl": {"type": "integer"},
	"teiler": {"type": "integer", "multipleOf": 5},
	"liste": {"type": "array", "items": {"type": "string"}, "minItems": 1, "uniqueItems": true},
	"form": {"anyOf": [{"type": "string"}, {"type": "boolean"}]},
	"extra": {"type": "object", "minProperties": 1},
	"sperre": {"type": "boolean"}
}, "required": ["liste"], "not": {"title": "Sperre", "required": ["sperre"]}}}}`
