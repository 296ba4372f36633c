package workbook

import (
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
	// Element is the element's index in the operator's request; Sheet and
	// Row its place in a spreadsheet or CSV file, when it came from one.
	Element int
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
}

// ResultWorkbook writes the outcome of a submission. Its Results sheet
// has a row per element: where it was in the operator's file, its bulk
// and sequence, its operation's status, the error of a failed operation
// and the API's response to any other. When some operations
// failed, a first sheet, "Failed rows", holds the failed elements with
// their errors under the template's headers: fixed, it imports again
// without a mapping step (an import reads the first sheet), and only the
// failed rows go out again.
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
	if err := writeResultsSheet(q, results); err != nil {
		return nil, err
	}
	f.SetActiveSheet(0)
	return writeBytes(f)
}

func writeResultsSheet(q *quotedText, results []Result) error {
	f := q.f
	sheets := false
	for _, r := range results {
		sheets = sheets || r.Sheet != ""
	}
	header := []any{"Element"}
	if sheets {
		header = []any{"Sheet", "Row"}
	}
	header = append(header, "Bulk", "Sequence", "Operation status", "Error", "Response", "Operation id")
	sw, err := f.NewStreamWriter(resultsSheet)
	if err != nil {
		return err
	}
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return err
	}
	widths := []float64{12, 10, 14, 10, 22, 60, 40, 24}
	for i, w := range widths[:len(header)] {
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
	for i, r := range results {
		row := []any{r.Element}
		if sheets {
			row = []any{r.Sheet, r.Row}
		}
		status := r.Status
		if status == "" && r.BulkID == "" {
			status = "NOT SUBMITTED"
		}
		var bulk, seq any
		if r.BulkID != "" {
			bulk, seq = r.BulkID, r.Sequence
		}
		row = append(row, bulk, seq, status, r.Error, r.Response, r.OperationID)
		if err := setStreamRow(q, sw, i+2, row, 0); err != nil {
			return err
		}
	}
	return sw.Flush()
}
