package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/rogpeppe/go-internal/testscript"
	"github.com/xuri/excelize/v2"
)

// scriptCommands are the commands the scripts have beside testscript's
// own: servers in the background, HTTP requests, a look into JSON and
// workbooks, and the module's generated test files.
var scriptCommands = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"exits":     cmdExits,
	"start":     cmdStart,
	"interrupt": cmdInterrupt,
	"http":      cmdHTTP,
	"json":      cmdJSON,
	"setjson":   cmdSetJSON,
	"bytes":     cmdBytes,
	"edit":      cmdEdit,
	"envfile":   cmdEnvFile,
	"xlsx":      cmdXLSX,
	"xlsxcat":   cmdXLSXCat,
	"sample":    cmdSample,
	"seq":       cmdSeq,
}

// cmdExits runs "exits N COMMAND [ARGS...]": it runs COMMAND as exec
// does, which must end with exit status N, as bulkdesk's 1 (the input
// has errors) and 2 (bad use, or input it cannot read) differ.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits N COMMAND [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			ts.Fatalf("exits: %v", err)
		}
		got = exit.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}

// cmdJSON runs "json FILE PATH [WANT]": FILE is stdout, stderr or a file
// holding one JSON value; PATH names a value in it by keys and indexes
// joined by dots (errors.0.row), len(PATH) its length (len(errors)), "."
// the whole. With WANT, the value must be WANT: a string as it reads, any
// other value as JSON (objects compare whatever the order of their keys),
// or, written @FILE, FILE's content; without, it must exist. Negated, the value must differ, or not exist.
// ("#" would begin a comment in a script, so lengths are len(...).)
func cmdJSON(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: json FILE PATH [WANT]")
	}
	got, ok := jsonAt(decodeJSON(ts, args[0]), args[1])
	if len(args) == 3 && strings.HasPrefix(args[2], "@") {
		args[2] = ts.ReadFile(args[2][1:])
	}
	switch {
	case len(args) == 2 && ok == neg:
		ts.Fatalf("json: %s %s: present %v", args[0], args[1], ok)
	case len(args) == 3 && (ok && got == jsonWant(got, args[2])) == neg:
		ts.Fatalf("json: %s %s is %s; want %s%s", args[0], args[1], got, map[bool]string{true: "other than "}[neg], args[2])
	}
}

// cmdSetJSON runs "setjson VAR FILE PATH": it sets $VAR to the value
// json would compare at PATH, such as the id of a bulk submit made.
func cmdSetJSON(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: setjson VAR FILE PATH")
	}
	got, ok := jsonAt(decodeJSON(ts, args[1]), args[2])
	if !ok {
		ts.Fatalf("setjson: %s has no %s", args[1], args[2])
	}
	ts.Setenv(args[0], got)
}

// decodeJSON reads the one JSON value of stdout, stderr or a file.
func decodeJSON(ts *testscript.TestScript, name string) any {
	d := json.NewDecoder(strings.NewReader(scriptFile(ts, name)))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		ts.Fatalf("%s is not JSON: %v", name, err)
	}
	return v
}

// jsonAt finds path in v and writes it as cmdJSON compares it.
func jsonAt(v any, path string) (string, bool) {
	inner, isLen := strings.CutPrefix(path, "len(")
	if isLen {
		path = strings.TrimSuffix(inner, ")")
	}
	if path != "." {
		for _, key := range strings.Split(path, ".") {
			switch x := v.(type) {
			case map[string]any:
				var ok bool
				if v, ok = x[key]; !ok {
					return "", false
				}
			case []any:
				i, err := strconv.Atoi(key)
				if err != nil || i < 0 || i >= len(x) {
					return "", false
				}
				v = x[i]
			default:
				return "", false
			}
		}
	}
	if isLen {
		switch x := v.(type) {
		case map[string]any:
			return strconv.Itoa(len(x)), true
		case []any:
			return strconv.Itoa(len(x)), true
		}
		return "", false
	}
	if s, ok := v.(string); ok {
		return s, true
	}
	b, _ := json.Marshal(v)
	return string(b), true
}

// jsonWant writes want as jsonAt writes what it found: an object or an
// array in want is written again, its keys in order, unless got is a
// string.
func jsonWant(got, want string) string {
	if !strings.HasPrefix(want, "{") && !strings.HasPrefix(want, "[") || !strings.HasPrefix(got, want[:1]) {
		return want
	}
	d := json.NewDecoder(strings.NewReader(want))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return want
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// scriptFile is the text of stdout, stderr or a file of the script.
func scriptFile(ts *testscript.TestScript, name string) string {
	switch name {
	case "stdout":
		return ts.ReadFile("stdout")
	case "stderr":
		return ts.ReadFile("stderr")
	}
	return ts.ReadFile(name)
}

// cmdBytes runs "bytes FILE TEXT...": it writes the TEXTs, each a string
// in Go's double quotes with its escapes, to FILE: the bytes a script
// cannot type, such as a control character or a file's magic number.
func cmdBytes(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: bytes FILE TEXT...")
	}
	var b strings.Builder
	for _, q := range args[1:] {
		s, err := strconv.Unquote(q)
		if err != nil {
			ts.Fatalf("bytes: %s: %v", q, err)
		}
		b.WriteString(s)
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(b.String()), 0o644))
}

// cmdEdit runs "edit FILE OLD NEW": it replaces the first OLD in FILE
// with NEW, as an operator changes a receipt by hand; OLD must be there.
func cmdEdit(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: edit FILE OLD NEW")
	}
	text := ts.ReadFile(args[0])
	if !strings.Contains(text, args[1]) {
		ts.Fatalf("edit: %s has no %q", args[0], args[1])
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(strings.Replace(text, args[1], args[2], 1)), 0o644))
}

// cmdEnvFile runs "envfile VAR FILE": it sets $VAR to FILE's content,
// such as a key that is no text a script can type.
func cmdEnvFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: envfile VAR FILE")
	}
	ts.Setenv(args[0], ts.ReadFile(args[1]))
}

// cmdXLSX runs "xlsx [-numfmt CELLS=FORMAT]... OUT SHEET=FILE...": it
// writes the workbook OUT with a sheet of each FILE's rows, in order.
// FILE's lines are rows, its cells separated by tabs: a number is written
// as a number, a cell in double quotes as the text Go's quoting says
// (escapes included), any other as text. -numfmt gives the cells of the
// first sheet, such as G2:G3, a number format.
func cmdXLSX(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! xlsx")
	}
	var formats [][2]string
	for len(args) > 1 && args[0] == "-numfmt" {
		cells, format, ok := strings.Cut(args[1], "=")
		if !ok {
			ts.Fatalf("xlsx: -numfmt %q: want CELLS=FORMAT", args[1])
		}
		formats = append(formats, [2]string{cells, format})
		args = args[2:]
	}
	if len(args) < 2 {
		ts.Fatalf("usage: xlsx [-numfmt CELLS=FORMAT]... OUT SHEET=FILE...")
	}
	f := excelize.NewFile()
	defer f.Close()
	var first string
	for i, arg := range args[1:] {
		sheet, file, ok := strings.Cut(arg, "=")
		if !ok {
			ts.Fatalf("xlsx: %q: want SHEET=FILE", arg)
		}
		if i == 0 {
			first = sheet
			ts.Check(f.SetSheetName("Sheet1", sheet))
		} else if _, err := f.NewSheet(sheet); err != nil {
			ts.Fatalf("xlsx: sheet %q: %v", sheet, err)
		}
		for r, line := range strings.Split(strings.TrimSuffix(ts.ReadFile(file), "\n"), "\n") {
			var row []any
			for _, cell := range strings.Split(line, "\t") {
				row = append(row, cellValue(ts, cell))
			}
			at, _ := excelize.CoordinatesToCellName(1, r+1)
			ts.Check(f.SetSheetRow(sheet, at, &row))
		}
	}
	for _, nf := range formats {
		style, err := f.NewStyle(&excelize.Style{CustomNumFmt: &nf[1]})
		ts.Check(err)
		from, to, _ := strings.Cut(nf[0], ":")
		if to == "" {
			to = from
		}
		ts.Check(f.SetCellStyle(first, from, to, style))
	}
	ts.Check(f.SaveAs(ts.MkAbs(args[0])))
}

func cellValue(ts *testscript.TestScript, cell string) any {
	if strings.HasPrefix(cell, `"`) {
		s, err := strconv.Unquote(cell)
		if err != nil {
			ts.Fatalf("xlsx: cell %s: %v", cell, err)
		}
		return s
	}
	if n, err := strconv.ParseFloat(cell, 64); err == nil {
		return n
	}
	if cell == "" {
		return nil
	}
	return cell
}

// cmdXLSXCat runs "xlsxcat FILE [SHEET]": it writes the sheet's rows to
// stdout, as the cells hold them, separated by tabs; without SHEET, the
// names of the sheets, one a line.
func cmdXLSXCat(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: xlsxcat FILE [SHEET]")
	}
	f, err := excelize.OpenFile(ts.MkAbs(args[0]))
	ts.Check(err)
	defer f.Close()
	if len(args) == 1 {
		for _, name := range f.GetSheetList() {
			fmt.Fprintln(ts.Stdout(), name)
		}
		return
	}
	rows, err := f.GetRows(args[1], excelize.Options{RawCellValue: true})
	ts.Check(err)
	for _, row := range rows {
		fmt.Fprintln(ts.Stdout(), strings.Join(row, "\t"))
	}
}

// cmdSeq runs "seq FILE HEADER FIRST N": it writes FILE with the line
// HEADER, then N lines of the numbers from FIRST: a file too long to
// hold in a script.
func cmdSeq(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: seq FILE HEADER FIRST N")
	}
	first, err := strconv.Atoi(args[2])
	ts.Check(err)
	n, err := strconv.Atoi(args[3])
	ts.Check(err)
	var b strings.Builder
	b.WriteString(args[1] + "\n")
	for i := range n {
		fmt.Fprintf(&b, "%d\n", first+i)
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(b.String()), 0o644))
}

// cmdSample runs "sample body|csv N FILE [FAILING...]": it writes N of
// the fixture's sample transfers to FILE as a request body or as CSV;
// the elements FAILING (0-based) carry the marker the sandbox fails.
// "sample contract 0 FILE" writes the fixture's newer OpenAPI contract.
func cmdSample(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: sample body|csv N FILE [FAILING...]")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	var fail []int
	for _, a := range args[3:] {
		i, err := strconv.Atoi(a)
		ts.Check(err)
		fail = append(fail, i)
	}
	run := fixture.Sample.Failing(fail...)
	var data []byte
	switch args[0] {
	case "body":
		data = run.Body(n)
	case "csv":
		data = fixture.CSV(run.List(n))
	case "contract":
		data = []byte(fixture.NewerContract)
	default:
		ts.Fatalf("sample: %q: want body or csv", args[0])
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[2]), bytes.Clone(data), 0o644))
}
