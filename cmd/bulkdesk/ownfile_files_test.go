package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
)

// The files of this file are an operator's own, as their spreadsheet
// program or bank writes them, not Bulkdesk's template: a German
// treasury's transfers between its managed accounts, and a French one's.
// Neither has Bulkdesk's profile id or the accounts' types, and their
// references hold the umlauts and accents operators type, which the
// contract's description does not allow.

// anOwnFile is an operator's own file of transfers and what they know
// of it.
type anOwnFile struct {
	lang, name string
	data       func(testing.TB) []byte
	transfers  []ownTransfer
	// headerRow is where the file's headers are.
	headerRow int
	zone      string
	// total is the file's total as the operator types it; firstDate the
	// first transfer's date in words, as the console writes it.
	total, firstDate string
	// fixed are the references the contract refuses, as the operator
	// retypes them in the console.
	fixed map[string]string
	// totalRow is the label of a row under the data that adds it up.
	totalRow string
}

var ownFiles = []anOwnFile{
	{lang: "de", name: "Überweisungen Dezember 2026.csv", data: germanCSV, transfers: germanTransfers, headerRow: 1,
		zone: "Europe/Berlin", total: "26.424,81", firstDate: "15. Dez. 2026, 00:00 Europe/Berlin",
		fixed: map[string]string{"Gehälter Dezember 2026": "Gehaelter Dezember 2026", "Rücklage Q1/2027": "Ruecklage Q1/2027"}},
	{lang: "de", name: "Überweisungen Dezember 2026.xlsx", data: func(testing.TB) []byte { return germanXLSX() }, transfers: germanTransfers, headerRow: 3,
		zone: "Europe/Berlin", total: "26.424,81", firstDate: "15. Dez. 2026, 00:00 Europe/Berlin",
		fixed:    map[string]string{"Gehälter Dezember 2026": "Gehaelter Dezember 2026", "Rücklage Q1/2027": "Ruecklage Q1/2027"},
		totalRow: "Summe"},
	{lang: "fr", name: "Virements décembre 2026.csv", data: func(testing.TB) []byte { return frenchCSV() }, transfers: frenchTransfers, headerRow: 1,
		zone: "Europe/Paris", total: "16 620,13", firstDate: "15 déc. 2026, 00:00 Europe/Paris",
		fixed: map[string]string{"Loyer décembre 2026": "Loyer decembre 2026"}},
	{lang: "fr", name: "Virements décembre 2026.xlsx", data: func(testing.TB) []byte { return frenchXLSX() }, transfers: frenchTransfers, headerRow: 1,
		zone: "Europe/Paris", total: "16 620,13", firstDate: "15 déc. 2026, 00:00 Europe/Paris",
		fixed: map[string]string{"Loyer décembre 2026": "Loyer decembre 2026"}},
}

// An ownTransfer is one row of an operator's list.
type ownTransfer struct {
	from, to string
	// amount is in cents; written as the operator's language writes it.
	amount      int64
	reference   string
	year, month int
	day         int
}

// germanTransfers total EUR 26.424,81.
var germanTransfers = []ownTransfer{
	{"1100000001", "1100000002", 123456, "Miete Dezember 2026", 2026, 12, 15},
	{"1100000001", "1100000003", 1250000, "Umbuchung Festgeld", 2026, 12, 15},
	{"1100000001", "1100000004", 389025, "Gehälter Dezember 2026", 2026, 12, 30},
	{"1100000005", "1100000002", 725000, "Rücklage Q1/2027", 2027, 1, 4},
	{"1100000005", "1100000006", 155000, "Umsatzsteuer Vorauszahlung", 2027, 1, 15},
}

// frenchTransfers total EUR 16 620,13.
var frenchTransfers = []ownTransfer{
	{"2200000001", "2200000002", 425000, "Loyer décembre 2026", 2026, 12, 15},
	{"2200000001", "2200000003", 800000, "Avance fournisseur FA-2026-118", 2026, 12, 15},
	{"2200000001", "2200000004", 187013, "Salaires 12/2026", 2026, 12, 31},
	{"2200000005", "2200000002", 250000, "Provision TVA T4 2026", 2027, 1, 5},
}

// germanCSV is the list as a German bank exports it: Windows-1252,
// semicolons, CRLF, 1.234,56 and 15.12.2026.
func germanCSV(t testing.TB) []byte {
	var b strings.Builder
	b.WriteString("Auftraggeberkonto;Empfängerkonto;Betrag;Währung;Verwendungszweck;Ausführungsdatum\r\n")
	for _, tr := range germanTransfers {
		fmt.Fprintf(&b, "%s;%s;%s;EUR;%s;%02d.%02d.%d\r\n", tr.from, tr.to, grouped(tr.amount, ".", ","), tr.reference, tr.day, tr.month, tr.year)
	}
	return windows1252(t, b.String())
}

// frenchCSV is the list as Excel in French saves "CSV UTF-8": a byte
// order mark, semicolons, CRLF, 16 620,13 with a no-break space and
// 15/12/2026.
func frenchCSV() []byte {
	var b strings.Builder
	b.WriteString("\uFEFFCompte source;Compte destinataire;Montant;Devise;Libellé;Date d'exécution\r\n")
	for _, tr := range frenchTransfers {
		fmt.Fprintf(&b, "%s;%s;%s;EUR;%s;%02d/%02d/%d\r\n", tr.from, tr.to, grouped(tr.amount, "\u00a0", ","), tr.reference, tr.day, tr.month, tr.year)
	}
	return []byte(b.String())
}

// germanXLSX is the same list as German Excel saves it: a title above
// the header, account numbers as numbers (Excel turned them into numbers
// when the export was opened), amounts shown as 1.234,56 €, dates as
// TT.MM.JJJJ, every text in the shared strings, and a "Summe" row below
// the data that adds the amounts up.
func germanXLSX() []byte {
	strs := newSharedStrings()
	var rows strings.Builder
	fmt.Fprintf(&rows, `<row r="1"><c r="A1" s="4" t="s"><v>%d</v></c></row>`, strs.add("Überweisungen Dezember 2026 – Treasury"))
	fmt.Fprintf(&rows, `<row r="3">%s</row>`, strs.row(3, 3, "Auftraggeberkonto", "Empfängerkonto", "Betrag", "Währung", "Verwendungszweck", "Ausführungsdatum"))
	r := 4
	for _, tr := range germanTransfers {
		fmt.Fprintf(&rows, `<row r="%d"><c r="A%d"><v>%s</v></c><c r="B%d"><v>%s</v></c><c r="C%d" s="1"><v>%s</v></c><c r="D%d" t="s"><v>%d</v></c><c r="E%d" t="s"><v>%d</v></c><c r="F%d" s="2"><v>%d</v></c></row>`,
			r, r, tr.from, r, tr.to, r, plain(tr.amount), r, strs.add("EUR"), r, strs.add(tr.reference), r, excelSerial(tr.year, tr.month, tr.day))
		r++
	}
	total := int64(0)
	for _, tr := range germanTransfers {
		total += tr.amount
	}
	fmt.Fprintf(&rows, `<row r="%d"><c r="A%d" s="3" t="s"><v>%d</v></c><c r="C%d" s="5"><f>SUM(C4:C%d)</f><v>%s</v></c></row>`, r, r, strs.add("Summe"), r, r-1, plain(total))
	sheet := `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
		fmt.Sprintf(`<dimension ref="A1:F%d"/>`, r) +
		`<sheetViews><sheetView tabSelected="1" workbookViewId="0"/></sheetViews><sheetFormatPr defaultRowHeight="15"/>` +
		`<cols><col min="1" max="2" width="18.7109375" customWidth="1"/><col min="3" max="3" width="14.7109375" customWidth="1"/><col min="5" max="5" width="30.7109375" customWidth="1"/><col min="6" max="6" width="16.7109375" customWidth="1"/></cols>` +
		`<sheetData>` + rows.String() + `</sheetData>` +
		`<mergeCells count="1"><mergeCell ref="A1:F1"/></mergeCells>` +
		`<pageMargins left="0.7" right="0.7" top="0.787401575" bottom="0.787401575" header="0.3" footer="0.3"/></worksheet>`
	// Styles 1 amount, 2 date, 3 bold text, 4 the title, 5 the bold total.
	styles := `<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
		`<numFmts count="2"><numFmt numFmtId="164" formatCode="#,##0.00\ &quot;€&quot;"/><numFmt numFmtId="165" formatCode="dd\.mm\.yyyy"/></numFmts>` +
		`<fonts count="3"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="14"/><name val="Calibri"/><family val="2"/></font></fonts>` +
		`<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>` +
		`<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
		`<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
		`<cellXfs count="6"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>` +
		`<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>` +
		`<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>` +
		`<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>` +
		`<xf numFmtId="0" fontId="2" fillId="0" borderId="0" xfId="0" applyFont="1"/>` +
		`<xf numFmtId="164" fontId="1" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" applyFont="1"/></cellXfs>` +
		`<cellStyles count="1"><cellStyle name="Standard" xfId="0" builtinId="0"/></cellStyles></styleSheet>`
	return oneSheetWorkbook("Überweisungen", sheet, styles, strs)
}

// frenchXLSX is the list as LibreOffice Calc in French saves it as
// .xlsx: numbers typed t="n" (account numbers too), amounts shown as
// # ##0,00 (written in the file, as every format, in its English
// form), dates shown as JJ/MM/AAAA, texts in the shared strings.
func frenchXLSX() []byte {
	strs := newSharedStrings()
	var rows strings.Builder
	fmt.Fprintf(&rows, `<row r="1" spans="1:6">%s</row>`, strs.row(1, 0, "Compte source", "Compte destinataire", "Montant", "Devise", "Libellé", "Date d'exécution"))
	for i, tr := range frenchTransfers {
		r := i + 2
		fmt.Fprintf(&rows, `<row r="%d" spans="1:6"><c r="A%d" s="0" t="n"><v>%s</v></c><c r="B%d" s="0" t="n"><v>%s</v></c><c r="C%d" s="1" t="n"><v>%s</v></c><c r="D%d" s="0" t="s"><v>%d</v></c><c r="E%d" s="0" t="s"><v>%d</v></c><c r="F%d" s="2" t="n"><v>%d</v></c></row>`,
			r, r, tr.from, r, tr.to, r, plain(tr.amount), r, strs.add("EUR"), r, strs.add(tr.reference), r, excelSerial(tr.year, tr.month, tr.day))
	}
	sheet := `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
		`<sheetPr filterMode="false"><pageSetUpPr fitToPage="false"/></sheetPr>` +
		fmt.Sprintf(`<dimension ref="A1:F%d"/>`, len(frenchTransfers)+1) +
		`<sheetViews><sheetView showFormulas="false" showGridLines="true" tabSelected="true" workbookViewId="0"><selection pane="topLeft" activeCell="A1" sqref="A1"/></sheetView></sheetViews>` +
		`<sheetFormatPr defaultColWidth="11.53515625" defaultRowHeight="12.8" zeroHeight="false" outlineLevelRow="0" outlineLevelCol="0"/>` +
		`<sheetData>` + rows.String() + `</sheetData>` +
		`<pageMargins left="0.7875" right="0.7875" top="1.05277777777778" bottom="1.05277777777778" header="0.7875" footer="0.7875"/></worksheet>`
	styles := `<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
		`<numFmts count="3"><numFmt numFmtId="164" formatCode="General"/><numFmt numFmtId="165" formatCode="#,##0.00"/><numFmt numFmtId="166" formatCode="dd/mm/yyyy"/></numFmts>` +
		`<fonts count="1"><font><sz val="10"/><name val="Arial"/><family val="2"/><charset val="1"/></font></fonts>` +
		`<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>` +
		`<borders count="1"><border diagonalUp="false" diagonalDown="false"><left/><right/><top/><bottom/><diagonal/></border></borders>` +
		`<cellStyleXfs count="1"><xf numFmtId="164" fontId="0" fillId="0" borderId="0" applyFont="true" applyBorder="true" applyAlignment="true" applyProtection="true"/></cellStyleXfs>` +
		`<cellXfs count="3"><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyFont="false" applyBorder="false" applyAlignment="false" applyProtection="false"/>` +
		`<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyFont="false" applyBorder="false" applyAlignment="false" applyProtection="false"/>` +
		`<xf numFmtId="166" fontId="0" fillId="0" borderId="0" xfId="0" applyFont="false" applyBorder="false" applyAlignment="false" applyProtection="false"/></cellXfs>` +
		`<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`
	return oneSheetWorkbook("Feuille1", sheet, styles, strs)
}

// oneSheetWorkbook zips a one-sheet workbook's parts.
func oneSheetWorkbook(sheetName, sheet, styles string, strs *sharedStrings) []byte {
	const head = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n"
	parts := []struct{ name, xml string }{
		{"[Content_Types].xml", `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`},
		{"_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`},
		{"xl/workbook.xml", `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><bookViews><workbookView activeTab="0"/></bookViews><sheets><sheet name="` + sheetName + `" sheetId="1" r:id="rId1"/></sheets></workbook>`},
		{"xl/_rels/workbook.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`},
		{"xl/worksheets/sheet1.xml", sheet},
		{"xl/styles.xml", styles},
		{"xl/sharedStrings.xml", strs.xml()},
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, p := range parts {
		w, _ := zw.Create(p.name)
		w.Write([]byte(head + p.xml))
	}
	zw.Close()
	return buf.Bytes()
}

// sharedStrings is a workbook's table of texts, each written once.
type sharedStrings struct {
	list []string
	at   map[string]int
}

func newSharedStrings() *sharedStrings { return &sharedStrings{at: map[string]int{}} }

// add returns the index of s, adding it at the end when new.
func (s *sharedStrings) add(v string) int {
	if i, ok := s.at[v]; ok {
		return i
	}
	s.at[v] = len(s.list)
	s.list = append(s.list, v)
	return len(s.list) - 1
}

// row writes texts as the cells A…, of row r, in the cell style given.
func (s *sharedStrings) row(r, style int, texts ...string) string {
	var b strings.Builder
	for i, v := range texts {
		fmt.Fprintf(&b, `<c r="%c%d" s="%d" t="s"><v>%d</v></c>`, 'A'+i, r, style, s.add(v))
	}
	return b.String()
}

func (s *sharedStrings) xml() string {
	var b strings.Builder
	fmt.Fprintf(&b, `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="%d" uniqueCount="%d">`, len(s.list), len(s.list))
	for _, v := range s.list {
		fmt.Fprintf(&b, `<si><t>%s</t></si>`, strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(v))
	}
	b.WriteString(`</sst>`)
	return b.String()
}

// excelSerial is a date as a spreadsheet stores it: days since
// 30 December 1899.
func excelSerial(year, month, day int) int {
	return int(time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC).Sub(time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)).Hours() / 24)
}

// plain writes cents as a spreadsheet stores the amount: 1234.56, 12500.
func plain(cents int64) string {
	if cents%100 == 0 {
		return fmt.Sprint(cents / 100)
	}
	return strings.TrimRight(fmt.Sprintf("%d.%02d", cents/100, cents%100), "0")
}

// grouped writes cents with a group separator every three digits and a
// decimal one: 1.234,56 or 16 620,13.
func grouped(cents int64, group, decimal string) string {
	whole := fmt.Sprint(cents / 100)
	var b strings.Builder
	for i, d := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteString(group)
		}
		b.WriteRune(d)
	}
	return fmt.Sprintf("%s%s%02d", b.String(), decimal, cents%100)
}

// windows1252 encodes text whose letters are all in Windows-1252's
// Latin-1 part, as a German bank's export is.
func windows1252(t testing.TB, text string) []byte {
	t.Helper()
	var b []byte
	for _, r := range text {
		if r > 0xff {
			t.Fatalf("%q is not in Windows-1252's Latin-1 part", r)
		}
		b = append(b, byte(r))
	}
	return b
}

// sentTransfers is what the sandbox must receive of a file: every
// transfer with its accounts, amount in cents, reference as fixed, and
// 00:00 of its date in the file's zone, in epoch milliseconds.
func sentTransfers(t *testing.T, f anOwnFile) []string {
	zone, err := time.LoadLocation(f.zone)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tr := range f.transfers {
		ref := tr.reference
		if good, ok := f.fixed[ref]; ok {
			ref = good
		}
		at := time.Date(tr.year, time.Month(tr.month), tr.day, 0, 0, 0, 0, zone).UnixMilli()
		out = append(out, fmt.Sprintf("110321 managed_accounts %s → managed_accounts %s EUR %d %q at %d", tr.from, tr.to, tr.amount, ref, at))
	}
	return out
}

// receivedTransfers writes the sandbox's operations as sentTransfers
// writes what they must be.
func receivedTransfers(t *testing.T, ops []bulkapi.Operation) []string {
	var out []string
	for _, op := range ops {
		var e struct {
			ProfileID   string `json:"profileId"`
			Source      struct{ Type, ID string }
			Destination struct{ Type, ID string }
			Amount      struct {
				Currency string
				Amount   int64
			} `json:"destinationAmount"`
			Description string
			Scheduled   string `json:"scheduledTimestamp"`
		}
		if err := json.Unmarshal([]byte(op.RequestPayload), &e); err != nil {
			t.Fatalf("operation %d: %v\n%s", op.Sequence, err, op.RequestPayload)
		}
		out = append(out, fmt.Sprintf("%s %s %s → %s %s %s %d %q at %s", e.ProfileID, e.Source.Type, e.Source.ID, e.Destination.Type, e.Destination.ID, e.Amount.Currency, e.Amount.Amount, e.Description, e.Scheduled))
	}
	return out
}
