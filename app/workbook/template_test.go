package workbook_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/workbook"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/xuri/excelize/v2"
)

// openTemplate writes kind k's template in l and opens it.
func openTemplate(t *testing.T, k *schema.Kind, o workbook.Template) *excelize.File {
	t.Helper()
	data, err := workbook.WriteTemplate(k, fixture.Validator().Fields(k), o)
	if err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// fieldsOf reads a template's Fields sheet as an operator would: the
// column letter and header of each field path.
func fieldsOf(t *testing.T, f *excelize.File) (sheet string, letters, headers map[string]string) {
	t.Helper()
	names := f.GetSheetList()
	rows, err := f.GetRows(names[1])
	if err != nil {
		t.Fatal(err)
	}
	letters, headers = map[string]string{}, map[string]string{}
	for _, r := range rows {
		if len(r) > 2 && len(r[0]) <= 3 && strings.Trim(r[0], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == "" && r[0] != "" {
			letters[r[2]], headers[r[2]] = r[0], r[1]
		}
	}
	return names[0], letters, headers
}

// TestTemplateIsHeadedInTheOperatorsWords writes every kind's template
// in every language: the data sheet's headers are the fields' names in
// that language, required ones marked, never a field's path; the paths
// are on the Fields sheet, which explains each column in the language.
func TestTemplateIsHeadedInTheOperatorsWords(t *testing.T) {
	want := map[lang.Tag]map[string]string{
		lang.English: {"destinationAmount.amount": "Amount *", "destinationAmount.currency": "Currency *", "source.type": "Source type *", "destination.id": "Destination id *", "scheduledTimestamp": "Execution date"},
		lang.German:  {"destinationAmount.amount": "Betrag *", "destinationAmount.currency": "Währung *", "source.type": "Quellentyp *", "destination.id": "Ziel-ID *", "scheduledTimestamp": "Ausführungsdatum"},
		lang.French:  {"destinationAmount.amount": "Montant *", "destinationAmount.currency": "Devise *", "source.type": "Type de source *", "destination.id": "Identifiant de la destination *", "scheduledTimestamp": "Date d’exécution"},
	}
	for _, l := range lang.All {
		for _, k := range schema.Kinds() {
			t.Run(string(l)+"/"+k.ID, func(t *testing.T) {
				f := openTemplate(t, k, workbook.Template{Lang: l})
				sheet, letters, headers := fieldsOf(t, f)
				if sheet != sheetTitle(l.T(k.Title)) {
					t.Errorf("data sheet %q", sheet)
				}
				cols := ingest.TemplateColumns(k, fixture.Validator().Fields(k))
				header, _ := f.GetRows(sheet)
				if len(header) != 1 || len(header[0]) != len(cols) {
					t.Fatalf("the data sheet holds %d rows, %d headers: %v", len(header), len(header[0]), header)
				}
				seen := map[string]bool{}
				for i, c := range cols {
					h := header[0][i]
					letter, _ := excelize.ColumnNumberToName(i + 1)
					if strings.ContainsAny(h, "._[") || seen[h] {
						t.Errorf("column %s of %s is headed %q", letter, c.Path, h)
					}
					seen[h] = true
					if strings.HasSuffix(h, " *") != c.Required {
						t.Errorf("%s: %q required %v", c.Path, h, c.Required)
					}
					if letters[c.Path] != letter || headers[c.Path] != h {
						t.Errorf("the Fields sheet says %s is column %q headed %q; the data sheet has %s %q", c.Path, letters[c.Path], headers[c.Path], letter, h)
					}
					if w, ok := want[l][c.Path]; ok && (k.ID == "transfers") && h != w {
						t.Errorf("%s is headed %q, want %q", c.Path, h, w)
					}
				}
			})
		}
	}
}

// sheetTitle is a kind's title as a sheet's name holds it.
func sheetTitle(s string) string {
	if r := []rune(s); len(r) > 31 {
		return strings.TrimSpace(string(r[:31]))
	}
	return s
}

// TestTemplateColumnsAreTypedAsPeopleType: amounts show their currency's
// decimals, dates and times are date cells, ids are text, and choices
// and yes-or-no come from dropdowns in the template's words.
func TestTemplateColumnsAreTypedAsPeopleType(t *testing.T) {
	formats := map[lang.Tag][2]string{lang.English: {"yyyy-mm-dd", "yyyy-mm-dd hh:mm"}, lang.German: {"dd.mm.yyyy", "dd.mm.yyyy hh:mm"}, lang.French: {"dd/mm/yyyy", "dd/mm/yyyy hh:mm"}}
	for _, l := range lang.All {
		for _, k := range schema.Kinds() {
			t.Run(string(l)+"/"+k.ID, func(t *testing.T) {
				f := openTemplate(t, k, workbook.Template{Lang: l})
				sheet, letters, _ := fieldsOf(t, f)
				dvs, err := f.GetDataValidations(sheet)
				if err != nil {
					t.Fatal(err)
				}
				dropdowns := map[string]string{}
				for _, dv := range dvs {
					from, _, _ := strings.Cut(dv.Sqref, ":")
					dropdowns[from] = dv.Formula1
				}
				for _, c := range ingest.TemplateColumns(k, fixture.Validator().Fields(k)) {
					letter := letters[c.Path]
					format := cellFormat(t, f, sheet, letter+"2")
					switch c.Reads() {
					case ingest.ReadsAmount:
						if format != "#,##0.00" {
							t.Errorf("%s: amount format %q", c.Path, format)
						}
						// A currency without minor units, or with three, shows
						// its own decimals.
						if got := shownFor(t, f, sheet, letter); !slices.Equal(got, []string{"#,##0", "#,##0.000"}) {
							t.Errorf("%s: the other currencies' formats %v", c.Path, got)
						}
					case ingest.ReadsMoment:
						if format != formats[l][1] {
							t.Errorf("%s: date and time format %q", c.Path, format)
						}
					case ingest.ReadsDate:
						if format != formats[l][0] {
							t.Errorf("%s: date format %q", c.Path, format)
						}
					case ingest.ReadsText:
						if format != "@" {
							t.Errorf("%s: text format %q", c.Path, format)
						}
					case ingest.ReadsChoice, ingest.ReadsYesNo:
						ref, ok := dropdowns[letter+"2"]
						if !ok {
							t.Errorf("%s: no dropdown in %v", c.Path, dropdowns)
							break
						}
						words := listWords(t, f, ref)
						wantWords := []string{l.T("Yes"), l.T("No")}
						if c.Reads() == ingest.ReadsChoice {
							wantWords = ingest.Choices(c.Field, l)
						}
						if !slices.Equal(words, wantWords) {
							t.Errorf("%s: dropdown %v, want %v", c.Path, words, wantWords)
						}
						for _, w := range words {
							if l != lang.English && slices.Contains(c.Field.Enum, w) {
								t.Errorf("%s: the dropdown offers the API's %q", c.Path, w)
							}
						}
					}
				}
				if visible, _ := f.GetSheetVisible(ingest.TemplateMarkSheet); visible {
					t.Error("the mark is visible")
				}
			})
		}
	}
}

// cellFormat returns the number format a cell typed into shows.
func cellFormat(t *testing.T, f *excelize.File, sheet, cell string) string {
	t.Helper()
	id, err := f.GetCellStyle(sheet, cell)
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.GetStyle(id)
	if err != nil {
		t.Fatal(err)
	}
	if s.CustomNumFmt != nil {
		return *s.CustomNumFmt
	}
	return strconv.Itoa(s.NumFmt)
}

// shownFor returns the number formats an amount column's conditional
// formats give a row whose currency has other decimals than two.
func shownFor(t *testing.T, f *excelize.File, sheet, letter string) []string {
	t.Helper()
	all, err := f.GetConditionalFormats(sheet)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for ref, rules := range all {
		if !strings.HasPrefix(ref, letter+"2:") {
			continue
		}
		for _, r := range rules {
			if r.Format == nil || !strings.Contains(r.Criteria, `="JPY"`) && !strings.Contains(r.Criteria, `="BHD"`) {
				continue
			}
			st, err := f.GetConditionalStyle(*r.Format)
			if err != nil || st.CustomNumFmt == nil {
				t.Fatalf("the rule's style: %v", err)
			}
			out = append(out, *st.CustomNumFmt)
		}
	}
	slices.Sort(out)
	return out
}

// listWords reads the words a dropdown offers from its range.
func listWords(t *testing.T, f *excelize.File, ref string) []string {
	t.Helper()
	sheet, rng, _ := strings.Cut(ref, "!")
	from, to, _ := strings.Cut(strings.ReplaceAll(rng, "$", ""), ":")
	c1, r1, _ := excelize.CellNameToCoordinates(from)
	_, r2, _ := excelize.CellNameToCoordinates(to)
	var out []string
	for r := r1; r <= r2; r++ {
		cell, _ := excelize.CoordinatesToCellName(c1, r)
		v, _ := f.GetCellValue(sheet, cell)
		out = append(out, v)
	}
	return out
}

// zone is the time zone the round trips write their dates in.
var zone, _ = time.LoadLocation("Europe/Berlin")

// currencies are those the round trips pick amounts in, of 2, 0 and 3
// decimals.
var currencies = []string{"EUR", "GBP", "USD", "JPY", "BHD", "CHF"}

var digitsOf = map[string]int{"EUR": 2, "GBP": 2, "USD": 2, "JPY": 0, "BHD": 3, "CHF": 2}

// filled is a value typed into a template's cell, and what the element
// must hold for it.
type filled struct {
	cell any // float64, time.Time (a date cell), string, bool
	want any // the element's value, as JSON writes it
}

// fillRow types a random valid value into every column of a template
// whose example is not empty, as an operator would: amounts with their
// currency's decimals, dates into date cells, choices and yes-or-no in
// the words of any language.
func fillRow(r *rand.Rand, cols []ingest.TemplateColumn) map[string]filled {
	out := map[string]filled{}
	currency := currencies[r.IntN(len(currencies))]
	anyLang := func() lang.Tag { return lang.All[r.IntN(len(lang.All))] }
	for _, c := range cols {
		if c.Example == "" {
			continue
		}
		switch c.Reads() {
		case ingest.ReadsAmount:
			d := digitsOf[currency]
			minor := 1 + r.Int64N(9_999_999)
			major := float64(minor)
			for range d {
				major /= 10
			}
			// The value as a spreadsheet stores what is typed: the
			// shortest decimal of the number.
			v, _ := strconv.ParseFloat(strconv.FormatFloat(major, 'f', d, 64), 64)
			out[c.Path] = filled{v, json.Number(strconv.FormatInt(minor, 10))}
		case ingest.ReadsMoment:
			at := time.Date(2027+r.IntN(3), time.Month(1+r.IntN(12)), 1+r.IntN(28), 8+r.IntN(12), r.IntN(60), 0, 0, zone)
			ms := strconv.FormatInt(at.UnixMilli(), 10)
			var want any = ms
			if c.Field.Type == "integer" {
				want = json.Number(ms)
			}
			out[c.Path] = filled{at, want}
		case ingest.ReadsDate:
			d := time.Date(1950+r.IntN(50), time.Month(1+r.IntN(12)), 1+r.IntN(28), 0, 0, 0, 0, time.UTC)
			var want any = d.Format("2006-01-02")
			if c.DateParts {
				want = map[string]any{"year": json.Number(strconv.Itoa(d.Year())), "month": json.Number(strconv.Itoa(int(d.Month()))), "day": json.Number(strconv.Itoa(d.Day()))}
			}
			out[c.Path] = filled{d, want}
		case ingest.ReadsChoice:
			v := c.Field.Enum[r.IntN(len(c.Field.Enum))]
			out[c.Path] = filled{ingest.ChoiceWords(v, anyLang()), v}
		case ingest.ReadsYesNo:
			yes := r.IntN(2) == 0
			w := "No"
			if yes {
				w = "Yes"
			}
			out[c.Path] = filled{anyLang().T(w), yes}
		case ingest.ReadsList:
			var want []any
			for _, s := range strings.Split(c.Example, ",") {
				want = append(want, strings.TrimSpace(s))
			}
			if c.Field.ItemType == "integer" {
				for i, s := range want {
					want[i] = json.Number(s.(string))
				}
			}
			out[c.Path] = filled{c.Example, want}
		default:
			v := c.Example
			if c.Field.Pattern == `^[0-9]+$` {
				v = fmt.Sprintf("%0*d", len(c.Example), r.IntN(int(pow10(len(c.Example)))))
			}
			if strings.HasSuffix(c.Path, "currency") {
				v = currency
			}
			out[c.Path] = filled{v, v}
		}
	}
	return out
}

func pow10(n int) int64 {
	p := int64(1)
	for range n {
		p *= 10
	}
	return p
}

// typeInto writes a row's values into the data sheet, each in its
// column's cell as a spreadsheet program stores what is typed.
func typeInto(t *testing.T, f *excelize.File, sheet string, letters map[string]string, row int, values map[string]filled) {
	t.Helper()
	for path, v := range values {
		cell := fmt.Sprintf("%s%d", letters[path], row)
		var err error
		switch x := v.cell.(type) {
		case float64:
			err = f.SetCellFloat(sheet, cell, x, -1, 64)
		case time.Time:
			wall := time.Date(x.Year(), x.Month(), x.Day(), x.Hour(), x.Minute(), 0, 0, time.UTC)
			serial := float64(wall.Sub(time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC))) / float64(24*time.Hour)
			err = f.SetCellFloat(sheet, cell, serial, -1, 64)
		case string:
			err = f.SetCellStr(sheet, cell, x)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// readBack reads a workbook as the console and the command line do:
// the sheet the kind chooses, its import prepared.
func readBack(t *testing.T, data []byte, k *schema.Kind) *ingest.Import {
	t.Helper()
	file, err := ingest.Open("filled.xlsx", data, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tab, err := file.TableFor(context.Background(), "", k, fixture.Validator(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return ingest.NewImport(tab, k, fixture.Validator())
}

// valueAt walks an element to a template column's field.
func valueAt(element any, path string) (any, bool) {
	v := element
	top := "requestBody"
	if rest, ok := strings.CutPrefix(path, "pathParams."); ok {
		top, path = "pathParams", rest
	}
	v = v.(map[string]any)[top]
	for _, part := range strings.Split(path, ".") {
		name, idx, list := strings.Cut(part, "[")
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = obj[name]; !ok {
			return nil, false
		}
		if list {
			n, _ := strconv.Atoi(strings.TrimSuffix(idx, "]"))
			items, ok := v.([]any)
			if !ok || n >= len(items) {
				return nil, false
			}
			v = items[n]
		}
	}
	return v, true
}

// TestFilledTemplatesReadBackAsTyped is the round trip: every kind's
// template in every language, filled with random valid rows as an
// operator types them (choices in the words of any language), reads back
// with exactly those values, every column mapped, nothing undecided or
// to look at, and one element per row typed.
func TestFilledTemplatesReadBackAsTyped(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 26))
	for _, l := range lang.All {
		for _, k := range schema.Kinds() {
			t.Run(string(l)+"/"+k.ID, func(t *testing.T) {
				f := openTemplate(t, k, workbook.Template{Lang: l, TimeZone: zone.String()})
				sheet, letters, _ := fieldsOf(t, f)
				cols := ingest.TemplateColumns(k, fixture.Validator().Fields(k))
				rows := make([]map[string]filled, 1+r.IntN(20))
				for i := range rows {
					rows[i] = fillRow(r, cols)
					typeInto(t, f, sheet, letters, i+2, rows[i])
				}
				var buf bytes.Buffer
				if _, err := f.WriteTo(&buf); err != nil {
					t.Fatal(err)
				}
				im := readBack(t, buf.Bytes(), k)
				checkReadBack(t, im, cols, rows)
			})
		}
	}
}

// checkReadBack checks an import of a filled template: mapped whole,
// read without a question, and each row's element holding what was typed.
func checkReadBack(t *testing.T, im *ingest.Import, cols []ingest.TemplateColumn, rows []map[string]filled) {
	t.Helper()
	m := im.Mapping()
	if len(m.Unmapped()) != 0 || len(m.Mapped()) != len(cols) || m.HeaderRow != 1 {
		t.Errorf("mapping: header row %d, %d of %d mapped, unmapped %+v", m.HeaderRow, len(m.Mapped()), len(cols), m.Unmapped())
	}
	rd := im.Reading()
	if u := rd.Undecided(); len(u) > 0 || rd.NeedsLook() {
		t.Errorf("undecided %v, needs a look %v: %+v", u, rd.NeedsLook(), rd)
	}
	if im.DataRows() != len(rows) {
		t.Errorf("%d data rows for %d typed", im.DataRows(), len(rows))
	}
	res := im.Build(nil)
	if len(res.Elements) != len(rows) {
		t.Fatalf("%d elements for %d rows: %v", len(res.Elements), len(rows), res.Report.Problems)
	}
	for _, p := range res.Report.Problems {
		if p.Severity == schema.Error {
			t.Errorf("problem %s: %s", ingest.Where(p), p.Message)
		}
	}
	for i, row := range rows {
		el := res.Value(i)
		for path, v := range row {
			got, ok := valueAt(el, path)
			gj, _ := json.Marshal(got)
			wj, _ := json.Marshal(v.want)
			if !ok || string(gj) != string(wj) {
				t.Errorf("row %d, %s: typed %v, read %s, want %s", i+2, path, v.cell, gj, wj)
			}
		}
	}
}
