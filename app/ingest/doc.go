// Package ingest turns the files operators bring (xlsx workbooks, CSV
// exports, JSON, text pasted from a spreadsheet) into tables of cells that
// remember where every value came from.
//
// # Reading
//
// [Open] reads a file's bytes and checks its content against its name;
// [File.Sheets] lists its sheets, hidden ones marked, and
// [File.DefaultSheet] picks the first visible one with values.
// [File.Table] reads one sheet into a [Table] of raw cells: text as
// written, numbers as stored, with their number format, formula and
// merged-cell flags. A file that cannot be read gives a [*ReadError] that
// names the file, sheet, row and column at fault and says what to do.
package ingest
