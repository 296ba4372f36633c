package workbook

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/keyfields"
	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/xuri/excelize/v2"
)

// Sheet names of a result workbook.
const (
	resultsSheet = "Results"
	failedSheet  = "Failed rows"
)

// A Result is the outcome of one element of a submission: a row of a
// result workbook.
type Result struct {
	// Element is the element's index in the operator's request; File,
	// Sheet and Row its file and its place in a spreadsheet or CSV file,
	// when the journal knows them.
	Element int
	File    string
	Sheet   string
	Row     int
	// BulkID and Sequence say which bulk, and where in it, the element
	// went; BulkID is empty when its chunk was not submitted.
	BulkID   string
	Sequence int
	// Status is the operation's state, "" when the bulk did not list it;
	// Error explains a failure, and Response is the API's answer to an
	// operation that did not fail (such as the created transfer).
	Status      string
	Error       string
	Response    string
	OperationID string
	// Keys are the element's key fields (the kind's KeyFields), read from
	// the API's record of its operation: who receives, the amount, the
	// reference and the source.
	Keys keyfields.Fields
}

// Failed reports whether the element's operation failed or was
// cancelled: a row to fix and send again.
func (r Result) Failed() bool {
	return r.Status == string(bulkapi.OpFailed) || r.Status == string(bulkapi.OpCancelled)
}

// ResultWorkbook writes the outcome of a submission. Its Results sheet
// has a row per element, the failed and cancelled ones first: where it
// was in the operator's file, its bulk and sequence, its operation's
// status, its key fields (who receives, the amount as a number in major
// units with its currency, the reference, the source), the error of a
// failed operation and the API's response to any other. When some
// operations failed, a first sheet, "Failed rows", holds the failed
// elements with their errors under the template's headers: fixed, it
// imports again without a mapping step (an import reads the first sheet),
// and only the failed rows go out again.
func ResultWorkbook(k *schema.Kind, fields []schema.Field, results []Result, failed []any, failedNotes []string) ([]byte, error) {
	f := excelize.NewFile()
	defer f.Close()
	first := resultsSheet
	if len(failed) > 0 {
		first = failedSheet
	}
	if err := f.SetSheetName("Sheet1", first); err != nil {
		return nil, err
	}
	q := newQuotedText(f)
	if len(failed) > 0 {
		if err := writeElementSheet(q, failedSheet, k, fields, failed, failedNotes); err != nil {
			return nil, err
		}
		if _, err := f.NewSheet(resultsSheet); err != nil {
			return nil, err
		}
	}
	if err := writeResultsSheet(q, k, results); err != nil {
		return nil, err
	}
	// The first sheet is the active one already: SetActiveSheet would
	// read every streamed row back and write it again.
	return writeBytes(f)
}

// resultColumns are the columns of a Results sheet for kind k: only
// those its rows and its kind fill.
type resultColumns struct {
	files, sheets, money, reference, source bool
}

func columnsOf(k *schema.Kind, results []Result) resultColumns {
	c := resultColumns{money: k.MovesMoney(), reference: k.Reference != "", source: k.Source != ""}
	for _, r := range results {
		c.files = c.files || r.File != ""
		c.sheets = c.sheets || r.Sheet != ""
	}
	return c
}

func (c resultColumns) header(k *schema.Kind) ([]any, []float64) {
	var header []any
	var widths []float64
	add := func(name string, width float64) {
		header = append(header, name)
		widths = append(widths, width)
	}
	if c.files {
		add("File", 24)
	}
	if c.sheets {
		add("Sheet", 12)
		add("Row", 8)
	} else {
		add("Element", 10)
	}
	add("Bulk", 20)
	add("Sequence", 10)
	add("Operation status", 20)
	add(receiverHeader(k), 36)
	if c.money {
		add("Amount", 16)
		add("Currency", 10)
	}
	if c.reference {
		add("Reference", 28)
	}
	if c.source {
		add("From", 26)
	}
	add("Error", 60)
	add("Response", 40)
	add("Operation id", 24)
	return header, widths
}

// receiverHeader names who receives in the operator's words for kind k.
func receiverHeader(k *schema.Kind) string {
	switch {
	case k.MovesMoney():
		return "Paid to"
	case k.ReceiverType == "managed_cards":
		return "Card"
	}
	return "User"
}

// amountStyles are the number formats of amounts in major units, by the
// currency's number of decimals.
type amountStyles map[int]int

func (s amountStyles) of(f *excelize.File, digits int) (int, error) {
	if id, ok := s[digits]; ok {
		return id, nil
	}
	format := "#,##0"
	if digits > 0 {
		format += "." + strings.Repeat("0", digits)
	}
	id, err := f.NewStyle(&excelize.Style{CustomNumFmt: &format})
	if err != nil {
		return 0, err
	}
	s[digits] = id
	return id, nil
}

// maxExactDigits is how many significant digits a spreadsheet's number
// keeps exactly: an amount of more is written as text, never rounded.
const maxExactDigits = 15

// amountCell is the cell of an amount: a number in major units with the
// currency's decimals, or, for a currency that is not an ISO 4217 code or
// an amount a number cannot hold exactly, text.
func amountCell(f *excelize.File, styles amountStyles, a *keyfields.Amount) (any, error) {
	if a == nil {
		return nil, nil
	}
	major, ok := a.Major(money.Separators{Decimal: '.'})
	if !ok {
		return a.Minor + " in minor units", nil
	}
	if len(strings.TrimLeft(a.Minor, "-+0")) > maxExactDigits {
		return major, nil
	}
	v, err := strconv.ParseFloat(major, 64)
	if err != nil {
		return major, nil
	}
	digits, _ := money.Digits(a.Currency)
	style, err := styles.of(f, digits)
	if err != nil {
		return nil, err
	}
	return excelize.Cell{StyleID: style, Value: v}, nil
}

// failedFirst orders results with the failed and cancelled rows first,
// each group in the order given.
func failedFirst(results []Result) []Result {
	out := slices.Clone(results)
	slices.SortStableFunc(out, func(a, b Result) int { return cmp.Compare(rank(a), rank(b)) })
	return out
}

func rank(r Result) int {
	if r.Failed() {
		return 0
	}
	return 1
}

func writeResultsSheet(q *quotedText, k *schema.Kind, results []Result) error {
	f := q.f
	cols := columnsOf(k, results)
	header, widths := cols.header(k)
	sw, err := f.NewStreamWriter(resultsSheet)
	if err != nil {
		return err
	}
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return err
	}
	for i, w := range widths {
		if err := sw.SetColWidth(i+1, i+1, w); err != nil {
			return err
		}
	}
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return err
	}
	if err := setStreamRow(q, sw, 1, header, bold); err != nil {
		return err
	}
	styles := amountStyles{}
	row := make([]any, 0, len(header))
	for i, r := range failedFirst(results) {
		row = row[:0]
		if cols.files {
			row = append(row, r.File)
		}
		if cols.sheets {
			row = append(row, r.Sheet, r.Row)
		} else {
			row = append(row, r.Element)
		}
		status := r.Status
		if status == "" && r.BulkID == "" {
			status = "NOT SUBMITTED"
		}
		var bulk, seq any
		if r.BulkID != "" {
			bulk, seq = r.BulkID, r.Sequence
		}
		row = append(row, bulk, seq, status, r.Keys.Counterparty.Text())
		if cols.money {
			amount, err := amountCell(f, styles, r.Keys.Amount)
			if err != nil {
				return err
			}
			var cur any
			if r.Keys.Amount != nil {
				cur = r.Keys.Amount.Currency
			}
			row = append(row, amount, cur)
		}
		if cols.reference {
			row = append(row, r.Keys.Reference)
		}
		if cols.source {
			row = append(row, r.Keys.Source)
		}
		row = append(row, r.Error, r.Response, r.OperationID)
		if err := setStreamRow(q, sw, i+2, row, 0); err != nil {
			return err
		}
	}
	return sw.Flush()
}
