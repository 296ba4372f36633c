package ingest

import (
	"strings"

	"github.com/bulkdesk/bulkdesk/schema"
)

// A TemplateColumn is one column of a kind's template: the header that
// maps it without a mapping step, the field it fills and an example value.
type TemplateColumn struct {
	// Header is the column's header in the API's own words: the field's
	// path (or for a path parameter its name, "Card id"), with " *" when
	// it is required. Workbooks of elements use it; a template's data
	// sheet is headed in the operator's words (TemplateWords).
	Header string
	// Path is the target the column fills.
	Path string
	// Field describes the value.
	Field schema.Field
	// Required is set for fields every element needs.
	Required bool
	// DateParts marks a whole date filling year, month and day fields.
	DateParts bool
	// Example is the value of the template's example row, as text.
	Example string
}

// TemplateColumns returns the columns of kind k's template, in the
// schema's order: lists of objects get the columns of their first item
// ("spendLimit[0].interval"), and year-month-day objects one date column.
func TemplateColumns(k *schema.Kind, fields []schema.Field) []TemplateColumn {
	cat := newCatalog(k, fields)
	var out []TemplateColumn
	done := make(map[string]bool)
	for _, f := range fields {
		if f.Deprecated {
			continue
		}
		path := strings.ReplaceAll(f.Path, "[]", "[0]")
		col := TemplateColumn{Path: path, Field: f, Required: f.Required && !f.Conditional}
		if obj, ok := dateObject(cat, f.Path); ok {
			if done[obj] {
				continue
			}
			done[obj] = true
			col.Path, col.DateParts = obj, true
			col.Field.Title = strings.TrimSuffix(f.Title, " year")
			col.Field.Type, col.Field.Format = "string", "date"
		}
		col.Header = col.Path
		if f.Path == "pathParams."+k.PathParam && k.PathParam != "" {
			col.Header = f.Title // "Card id", "User id": matched as aliases
		}
		if col.Required {
			col.Header += " *"
		}
		col.Example = exampleValue(k, col)
		out = append(out, col)
	}
	return out
}

// dateObject returns the year-month-day object a field belongs to.
func dateObject(cat *catalog, path string) (string, bool) {
	i := strings.LastIndexByte(path, '.')
	if i < 0 {
		return "", false
	}
	_, ok := cat.dateParts[path[:i]]
	return path[:i], ok
}

// exampleValue is a plausible value for a template's example row: valid
// where the field stands alone, so the row shows what a good row looks
// like. Fields of optional forms (one kind of beneficiary) are left
// empty but for the simplest form, a saved beneficiary.
func exampleValue(k *schema.Kind, c TemplateColumn) string {
	f := c.Field
	last := c.Path[strings.LastIndexAny(c.Path, ".]")+1:]
	if f.Conditional && last != "beneficiaryId" {
		return ""
	}
	switch {
	case c.DateParts || f.Format == "date":
		return "1990-01-31"
	case f.Format == "email":
		return "jane.doe@example.com"
	case len(f.Enum) > 0 && f.Type == "array":
		return f.Enum[0]
	case len(f.Enum) > 0:
		return f.Enum[0]
	case f.Type == "boolean":
		return "TRUE"
	case isAmount(f):
		return "1050"
	case last == "startTimestamp" || last == "scheduledTimestamp":
		return "1893456000000"
	case f.Type == "integer":
		return "1"
	case f.Type == "array" && strings.Contains(c.Path, "Countries"):
		return "GB, FR"
	case f.Type == "array" && strings.Contains(c.Path, "Categories"):
		return "5411, 5812"
	case f.Type == "array":
		return "1001, 1002"
	}
	if v, ok := exampleStrings[last]; ok {
		return v
	}
	switch f.Pattern {
	case `^[0-9]+$`:
		return "1234567"
	case `^[A-Z]{2}$`, `^[A-Z]+$`:
		return "GB"
	}
	return "text"
}

// exampleStrings are example values of text fields, by name.
var exampleStrings = map[string]string{
	"profileId": "110321", "currency": "EUR", "tag": "payroll-nov", "description": "Salary November",
	"name": "Jane", "surname": "Doe", "countryCode": "+44", "number": "7700900123", "locale": "en-GB",
	"brand": "default", "iban": "GB33BUKB20201555555555", "bankIdentifierCode": "BUKBGB22",
	"sortCode": "200000", "accountNumber": "55779911", "purpose": "Invoice 1234", "account": "123456789",
	"address": "1 High Street, London", "bankName": "Example Bank", "bankAddress": "2 Bank Street, London",
	"secondaryReference": "REF1", "id": "1234567",
}

// exampleValues returns the template example value of each mapped
// column, or nil when the columns are not a template's: all of the
// template's required columns must be mapped. Optional columns may have
// been deleted by the operator.
func (rd *reader) exampleValues() map[int]string {
	mapped := make(map[string]int)
	for _, col := range rd.cols {
		if !col.set { // a value set for every row is no column of the template
			mapped[col.target.Path] = col.index
		}
	}
	out := make(map[int]string)
	for _, c := range TemplateColumns(rd.Kind, rd.cat.fields) {
		col, ok := mapped[c.Path]
		switch {
		case !ok && c.Required:
			return nil
		case ok && c.Example != "":
			out[col] = c.Example
		}
	}
	return out
}

// isExampleRow reports a row that is a template's example row, unchanged
// (Build asks only of the first row below the header): it is left out of
// the bulk rather than sent as an operation.
func isExampleRow(r *Row, examples map[int]string) bool {
	if len(examples) == 0 {
		return false
	}
	for col, ex := range examples {
		c := r.Cell(col)
		v := text(c) // without the apostrophe a CSV template puts before "+44"
		if c.Empty() {
			v = ""
		}
		if v != ex && !(c.Kind == Bool && strings.EqualFold(v, ex)) {
			return false
		}
	}
	return true
}

// dataRows counts the rows below the header that hold a value, but for
// the example row of an older template left unchanged: the build leaves
// it out, so a count that took it in promised one element too many
// ("Validate 51 rows" for 50 transfers). Rows a spreadsheet keeps without
// a value (hidden, or styled) are not counted either, nor a total below
// the data (see totalRowsFrom).
func (rd *reader) dataRows() int {
	first := rd.firstDataRow()
	n := 0
	for i, end := first, rd.totalRowsFrom(); i < end; i++ {
		if rowHasValue(&rd.Table.Rows[i]) {
			n++
		}
	}
	if n > 0 && first < len(rd.Table.Rows) {
		if ex := rd.exampleValues(); ex != nil && isExampleRow(&rd.Table.Rows[first], ex) {
			n--
		}
	}
	return n
}

func rowHasValue(r *Row) bool {
	for _, c := range r.Cells {
		if !c.Empty() {
			return true
		}
	}
	return false
}
