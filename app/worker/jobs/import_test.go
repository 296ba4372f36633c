package jobs_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/jobs"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
	"github.com/xuri/excelize/v2"
)

// payCSV is a transfers file in minor units with exact headers; row 3's
// currency is lower case.
const payCSV = `profileId,source.type,source.id,destination.type,destination.id,destinationAmount.currency,destinationAmount.amount
110321,managed_accounts,1001,managed_cards,2001,EUR,1050
110321,managed_accounts,1001,managed_cards,2002,eur,2000
110321,managed_accounts,1002,managed_cards,2003,EUR,300
`

func (h *harness) prepared(id int) wire.Prepared {
	h.t.Helper()
	var p wire.Prepared
	h.result(id, &p)
	return p
}

func TestOpenSuggestsTheKindFromTheHeadersAndWaits(t *testing.T) {
	h := newHarness(t)
	p := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "pay.csv", Auto: true}, []byte(payCSV)))
	if p.Kind != "transfers" || !p.KindSuggested || p.Ready || p.Summary != nil {
		t.Fatalf("kind %q suggested %v ready %v built %v; want transfers suggested, waiting; suggestions %+v", p.Kind, p.KindSuggested, p.Ready, p.Summary != nil, p.Suggestions)
	}
	if len(p.Suggestions) == 0 || p.Suggestions[0].Kind != "transfers" || p.Suggestions[0].Matched != 7 {
		t.Errorf("suggestions = %+v", p.Suggestions)
	}
	if p.Format != "csv" || p.Delimiter != "," || p.HeaderRow != 1 || p.DataRows != 3 || len(p.Columns) != 7 {
		t.Errorf("prepared = %+v", p)
	}
	if c := p.Columns[5]; c.Field != "destinationAmount.currency" || c.Match != wire.MatchExact || strings.Join(c.Samples, " ") != "EUR eur EUR" {
		t.Errorf("column F = %+v", c)
	}
	// The operator confirms the kind: now it is ready, and builds.
	p = h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: p.Document, Kind: "transfers"}, nil))
	if !p.Ready || p.KindSuggested {
		t.Errorf("after choosing the kind: ready %v suggested %v", p.Ready, p.KindSuggested)
	}
	var s wire.Summary
	h.result(h.send(wire.JobBuild, wire.Build{Document: p.Document}, nil), &s)
	if s.Elements != 3 || s.Invalid != 1 || len(s.Columns) != 7 || s.Columns[5].Letter != "F" || len(s.Totals) != 2 {
		t.Errorf("summary = %+v", s)
	}
}

func TestOpenBuildsAtOnceWhenNothingNeedsConfirming(t *testing.T) {
	h := newHarness(t)
	p := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "pay.csv", Kind: "transfers", Auto: true}, []byte(payCSV)))
	if !p.Ready || p.Summary == nil {
		t.Fatalf("not built at once: %+v", p)
	}
	s := p.Summary
	if s.Elements != 3 || s.Valid != 2 || s.Errors != 1 || s.Sheet != "pay" || !strings.Contains(s.ReadAs, "minor units") {
		t.Errorf("summary = %+v", s)
	}
	if len(s.Problems) != 1 || s.Problems[0].Row != 3 || s.Problems[0].Column != "F" {
		t.Errorf("problems = %+v", s.Problems)
	}
	want := []wire.Total{{Currency: "EUR", Label: "EUR", Count: 2, Minor: "1350", Amount: "13.50", Text: "EUR 13.50"},
		{Invalid: true, Label: "invalid currency", Count: 1, Minor: "2000", Amount: "2,000 in minor units", Text: `invalid currency: 2,000 in minor units ("eur")`, Codes: []string{"eur"}}}
	if fmt.Sprint(s.Totals) != fmt.Sprint(want) {
		t.Errorf("totals = %+v", s.Totals)
	}
	if len(s.Sources) != 2 || s.Sources[0].Source != "managed_accounts 1001" || s.Sources[0].Count != 2 {
		t.Errorf("sources = %+v", s.Sources)
	}
}

func TestPrepareMapsColumnsAndSettings(t *testing.T) {
	h := newHarness(t)
	csv := "Pay run November\n\nprofileId;source.id;source.type;destination.id;destination.type;Spalte 6;Spalte 7\n" +
		"110321;1001;managed_accounts;2001;managed_cards;EUR;1.234,56\n" +
		"110321;1002;managed_accounts;2002;managed_cards;EUR;12,50\n"
	p := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "run.csv", Kind: "transfers", Auto: true}, []byte(csv)))
	if p.Ready || p.Summary != nil || p.HeaderRow != 3 || p.Delimiter != ";" {
		t.Fatalf("prepared = %+v", p)
	}
	if len(p.Missing) == 0 {
		t.Errorf("no missing required fields: %+v", p)
	}
	p = h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: p.Document, Columns: []wire.ColumnChoice{
		{Column: 5, Field: "destinationAmount.currency"}, {Column: 6, Field: "destinationAmount.amount"},
	}}, nil))
	if c := p.Columns[6]; c.Field != "destinationAmount.amount" || c.Match != wire.MatchManual {
		t.Errorf("column G = %+v", c)
	}
	if p.Settings.Amounts != "major" || p.Settings.Decimal != "," || len(p.Examples) == 0 || p.Examples[0].Parsed != "EUR 1,234.56" {
		t.Errorf("settings %+v, examples %+v", p.Settings, p.Examples)
	}
	if strings.Join(p.SettingsMatter, " ") != "amounts separators" {
		t.Errorf("settings that matter = %q", p.SettingsMatter)
	}
	// Amounts in major units are not the default: the operator looks
	// at the reading before the review, however clear the file is.
	if p.Ready || len(p.Missing) != 0 || !p.Reading.NeedsLook() {
		t.Errorf("ready %v, missing %q, reading %+v", p.Ready, p.Missing, p.Reading)
	}
	// Reading the amounts as minor units makes 12,50 an error at its cell.
	p = h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: p.Document, Settings: &wire.Settings{Amounts: "minor"}}, nil))
	if p.Ready || p.Examples[0].Error == "" {
		t.Errorf("examples with minor units = %+v", p.Examples)
	}
	// The mapping file reproduces the choices on another file.
	p = h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: p.Document, Settings: &wire.Settings{Amounts: "major", Decimal: ",", Group: "."}}, nil))
	var s wire.Summary
	h.result(h.send(wire.JobBuild, wire.Build{Document: p.Document}, nil), &s)
	if s.Invalid != 0 || s.Totals[0].Text != "EUR 1,247.06" {
		t.Fatalf("summary = %+v", s)
	}
	_, m := h.wait(h.send(wire.JobExport, wire.Export{Document: p.Document, What: wire.ExportMapping}, nil))
	// It records how the file was read, as the command line's -mapping
	// takes it.
	for _, want := range []string{`"headerRow": 3`, `"amounts": "major"`, `"encoding": "utf-8"`, `"delimiter": ";"`} {
		if !strings.Contains(string(m.Data), want) {
			t.Errorf("the mapping file lacks %s:\n%s", want, m.Data)
		}
	}
	next := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "run2.csv", Kind: "transfers"}, []byte(csv)))
	next = h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: next.Document, SavedMapping: string(m.Data)}, nil))
	if next.Settings.Decimal != "," || next.Columns[6].Field != "destinationAmount.amount" || next.Reading.Units.How != reading.Chosen {
		t.Errorf("with the saved mapping: %+v", next)
	}
	// A file opened with another delimiter is read again with the
	// mapping's.
	other := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "run3.csv", Kind: "transfers", Delimiter: ","}, []byte(csv)))
	if other.Delimiter != "," {
		t.Fatalf("opened with %q", other.Delimiter)
	}
	other = h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: other.Document, SavedMapping: string(m.Data)}, nil))
	if other.Delimiter != ";" || other.HeaderRow != 3 || len(other.Columns) < 7 || other.Columns[6].Field != "destinationAmount.amount" || other.Reading.Delimiter.How != reading.Chosen {
		t.Errorf("with the saved mapping's delimiter: %+v", other)
	}
}

// twoSheets is a workbook with a hidden sheet first and the transfers on
// the second.
func twoSheets(t *testing.T) []byte {
	t.Helper()
	return coverAndTransfers(t, "Notes", func(f *excelize.File) error {
		f.SetCellStr("Notes", "A1", "draft")
		f.SetActiveSheet(1)
		return f.SetSheetVisible("Notes", false)
	})
}

// coverAndTransfers is a workbook whose first sheet, cover, is filled by
// fill, and whose second sheet holds two transfers.
func coverAndTransfers(t *testing.T, cover string, fill func(*excelize.File) error) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	f.SetSheetName("Sheet1", cover)
	f.NewSheet("Transfers")
	rows := [][]any{
		{"profileId", "source.type", "source.id", "destination.type", "destination.id", "destinationAmount.currency", "destinationAmount.amount"},
		{"110321", "managed_accounts", "1001", "managed_cards", "2001", "EUR", 1050},
		{"110321", "managed_accounts", "1001", "managed_cards", "2002", "EUR", 250},
	}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		f.SetSheetRow("Transfers", cell, &r)
	}
	if err := fill(f); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestSheetsAreListedWithTheHiddenOnesMarked(t *testing.T) {
	h := newHarness(t)
	p := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "book.xlsx", Kind: "transfers", Auto: true}, twoSheets(t)))
	if len(p.Sheets) != 2 || !p.Sheets[0].Hidden || p.Sheets[1].Hidden || p.Sheet != "Transfers" {
		t.Fatalf("sheets %+v, reading %q", p.Sheets, p.Sheet)
	}
	if p.Summary == nil || p.Summary.Elements != 2 {
		t.Fatalf("not built: %+v", p.Summary)
	}
	p = h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: p.Document, Sheet: "Notes"}, nil))
	if p.Sheet != "Notes" || p.Ready || p.Summary != nil {
		t.Errorf("after choosing the hidden sheet: %+v", p)
	}
}

func TestReviewJobs(t *testing.T) {
	h := newHarness(t)
	var b strings.Builder
	b.WriteString("profileId,source.type,source.id,destination.type,destination.id,destinationAmount.currency,destinationAmount.amount\n")
	for i := range 300 {
		cur := "EUR"
		if i%50 == 7 {
			cur = "eur"
		}
		fmt.Fprintf(&b, "110321,managed_accounts,%d,managed_cards,%d,%s,%d\n", 1000+i%3, 2000+i, cur, 100+i)
	}
	p := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "big.csv", Kind: "transfers", Auto: true}, []byte(b.String())))
	doc := p.Summary.Document
	if p.Summary.Invalid != 6 {
		t.Fatalf("invalid = %d, want 6", p.Summary.Invalid)
	}

	// A window, and the errors-only view moved to element 107.
	var rows wire.Rows
	h.result(h.send(wire.JobRows, wire.RowsWindow{Document: doc, Offset: 10, Limit: 20}, nil), &rows)
	if rows.Total != 300 || rows.Offset != 10 || len(rows.Rows) != 20 || rows.Rows[0].Label != "12" || rows.Rows[0].Cells[4] != "2010" {
		t.Errorf("window = total %d offset %d, %d rows, first %+v", rows.Total, rows.Offset, len(rows.Rows), rows.Rows[0])
	}
	around := 107
	h.result(h.send(wire.JobRows, wire.RowsWindow{Document: doc, Limit: 4, ErrorsOnly: true, Around: &around}, nil), &rows)
	if rows.Total != 6 || rows.Position != 2 || rows.Offset != 0 || rows.Rows[rows.Position-rows.Offset].Element != 107 {
		t.Errorf("errors-only window = %+v", rows)
	}
	if m := rows.Rows[0].Marks; len(m) != 1 || m[0].Column != 5 || m[0].Severity != "error" {
		t.Errorf("marks = %+v", m)
	}

	// The next error after element 7, then an edit that fixes it.
	var found wire.FoundProblem
	h.result(h.send(wire.JobNextProblem, wire.NextProblem{Document: doc, After: 7, ErrorsOnly: true}, nil), &found)
	if !found.Found || found.Element != 57 || found.Column != 5 || found.Position != 1 {
		t.Errorf("next error = %+v", found)
	}
	var edited wire.Edited
	h.result(h.send(wire.JobEdit, wire.Edit{Document: doc, Element: 57, Column: 5, Text: "EUR"}, nil), &edited)
	if edited.Row.Severity != "" || edited.Row.Cells[5] != "EUR" || edited.Summary.Invalid != 5 || edited.Summary.Version <= p.Summary.Version {
		t.Errorf("edited = %+v", edited)
	}

	// Replace the rest in one go.
	var replaced wire.Replaced
	h.result(h.send(wire.JobReplace, wire.Replace{Document: doc, Column: 5, Find: "eur", With: "EUR", MatchCase: true, WholeCell: true}, nil), &replaced)
	if replaced.Cells != 5 || replaced.Summary.Invalid != 0 || replaced.Summary.Totals[0].Count != 300 {
		t.Errorf("replaced = %+v", replaced)
	}

	// The request body as it would be sent.
	var ex wire.Exported
	id := h.send(wire.JobExport, wire.Export{Document: doc, What: wire.ExportRequest}, nil)
	_, m := h.wait(id)
	if err := json.Unmarshal(m.Body, &ex); err != nil || ex.FileName != "big.request.json" || ex.Size != len(m.Data) {
		t.Fatalf("export = %s (%v)", m.Body, err)
	}
	var body []map[string]any
	if err := json.Unmarshal(m.Data, &body); err != nil || len(body) != 300 {
		t.Fatalf("body: %d elements, %v", len(body), err)
	}
	if first, _ := json.Marshal(body[57]["requestBody"]); !strings.Contains(string(first), `"destinationAmount":{"amount":157,"currency":"EUR"}`) {
		t.Errorf("element 57 = %s", first)
	}
	for _, what := range []string{wire.ExportErrorWorkbook, wire.ExportErrorCSV, wire.ExportManifest} {
		_, m := h.wait(h.send(wire.JobExport, wire.Export{Document: doc, What: what}, nil))
		if m.Type != wire.TypeResult || len(m.Data) == 0 {
			t.Errorf("export %s: %s %s", what, m.Type, m.Body)
		}
	}
}

func TestTheDocumentOffersWhatASubmissionNeeds(t *testing.T) {
	h := newHarness(t)
	type facts struct {
		Elements int
		Invalid  int
		Sheet    string
		Row      int
	}
	h.server.Register("inspect", func(c *runner.Call) (any, error) {
		var id int
		if err := c.Decode(&id); err != nil {
			return nil, err
		}
		d, err := h.server.Files().Get(id)
		if err != nil {
			return nil, err
		}
		sheet, row := d.Origin(2)
		return facts{Elements: len(d.Elements()), Invalid: len(d.Report().InvalidElements()), Sheet: sheet, Row: row}, nil
	})
	p := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "pay.csv", Kind: "transfers", Auto: true}, []byte(payCSV)))
	var got facts
	h.result(h.send("inspect", p.Document, nil), &got)
	if got != (facts{Elements: 3, Invalid: 1, Sheet: "pay", Row: 4}) {
		t.Errorf("table document: %+v", got)
	}
	p = h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "t.json", Kind: "transfers", Auto: true}, fixture.Transfers(5, 1)))
	h.result(h.send("inspect", p.Document, nil), &got)
	if got != (facts{Elements: 5, Invalid: 1, Sheet: "", Row: 2}) {
		t.Errorf("request document: %+v", got)
	}
}

func TestUnreadableFilesSayWhy(t *testing.T) {
	h := newHarness(t)
	e := h.failure(h.send(wire.JobOpen, wire.Open{FileName: "old.xls", Kind: "transfers"}, []byte{0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0}))
	if e.Code != jobs.CodeUnreadable || !strings.Contains(e.Message, "old.xls") {
		t.Errorf("error = %+v", e)
	}
}

func TestPastedRowsAreATable(t *testing.T) {
	h := newHarness(t)
	text := strings.ReplaceAll(payCSV, ",", "\t")
	p := h.prepared(h.send(wire.JobOpen, wire.Open{Text: text, Kind: "transfers", Auto: true}, nil))
	if p.FileName != "Pasted rows" || p.Summary == nil || p.Summary.Elements != 3 {
		t.Errorf("pasted rows = %+v", p)
	}
}

// A summary sheet before the data is passed over: the sheet whose headers
// fit the kind is read, unless the operator picks another.
func TestTheSheetThatFitsTheKindIsRead(t *testing.T) {
	book := coverAndTransfers(t, "Summary", func(f *excelize.File) error {
		f.SetCellStr("Summary", "A1", "Payments, November")
		f.SetCellStr("Summary", "A2", "Total")
		return f.SetCellInt("Summary", "B2", 1300)
	})
	h := newHarness(t)
	// Without a kind, the sheet after the summary suggests it, and is read.
	p := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "book.xlsx", Auto: true}, book))
	if p.Kind != "transfers" || !p.KindSuggested || p.Sheet != "Transfers" {
		t.Fatalf("without a kind: kind %q (suggested %v), sheet %q", p.Kind, p.KindSuggested, p.Sheet)
	}
	p = h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "book.xlsx", Kind: "transfers", Auto: true}, book))
	if p.Sheet != "Transfers" || p.Summary == nil || p.Summary.Elements != 2 {
		t.Fatalf("read %q: %+v", p.Sheet, p.Summary)
	}
	p = h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: p.Document, Sheet: "Summary"}, nil))
	if p.Sheet != "Summary" {
		t.Errorf("after picking the summary: %q", p.Sheet)
	}
	// Another kind keeps the sheet the operator picked.
	p = h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: p.Document, Kind: "sends"}, nil))
	if p.Sheet != "Summary" {
		t.Errorf("after changing the kind: %q", p.Sheet)
	}
}
