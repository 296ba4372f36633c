// Package ingest turns the files operators bring (xlsx workbooks, CSV
// exports, JSON, text pasted from a spreadsheet) into the elements of a
// bulk request, keeping for every value the cell it came from. It is plain
// Go with no file system or OS calls: the command line uses it natively
// and the console uses it in the browser under WebAssembly.
//
// # The flow
//
//	file bytes ──Open──▶ File ──Table(sheet)──▶ Table ──NewImport──▶ Import
//	                     sheets, hidden ones        raw cells        mapping, settings
//	                     marked                                        │
//	                                          Build ◀──────────────────┘
//	                                            │
//	                                            ▼
//	                 Result: elements (row → element) + one schema.Report
//	                 of coercion and validation problems at sheet/row/column
//
// # Reading a file
//
// [Open] checks the content against the file's name: a .xlsx that is
// really CSV is read as CSV (with a note), one that is HTML, a .xls, a
// password-protected workbook, a damaged zip or a zip bomb gets a
// [*ReadError] that says what to do. [File.Sheets] lists the sheets,
// hidden and empty ones marked; [File.DefaultSheet] is the first visible
// sheet with values. [File.ChooseSheet] picks, from the top rows of each
// sheet only, the one whose header best fits a kind (a cover sheet first
// is passed over; sheets that tie are undecided), and [File.TableFor]
// reads it with that decision in Table.Reading. [File.Table] reads one
// sheet into a [Table] of raw
// cells: text as written, numbers as the file stores them with their
// number format, formula and merged-cell flags. A JSON request body
// ([File.IsRequest]) needs no mapping: validate [File.Request] as it is.
//
// CSV files have their encoding (UTF-8, UTF-16, Windows-1252) and
// delimiter detected; [File.Encoding] and [File.Delimiter] say what was
// used, and [Options] overrides them (open the bytes again).
//
// # Mapping and settings
//
// [NewImport] finds the header row (title rows above it are skipped) and
// maps the columns whose header is a field's path or a common name of it
// in English, German or French ("Card ID", "Betrag", "Date d'exécution"),
// or whose words say which side of a payment and what of it ("Konto
// Empfänger", "IBAN du bénéficiaire"); the rest get
// [ColumnMapping.Suggestions], the fields a header may mean first: one
// that fits several fields, or a date that is not surely the day a
// payment runs ("Valuta", "Date de valeur"), is the operator's choice.
// [Import.Mapping] returns it for the operator to review; [Mapping.Set]
// and [Import.SetMapping] apply their choices, [Import.SetHeaderRow]
// starts again from another row. [Import.Targets] lists the fields a
// column can take. [MarshalMapping] and [UnmarshalMapping] save and load
// a mapping file ([Import.SavedMapping] gives it with the settings, and
// the sheet or the encoding and delimiter, in use), and
// [Import.UseSavedMapping] applies one to the next file of the same
// shape, matching columns by header; its header row and settings are the
// operator's choices. [Import.Reading] says how every aspect of the file
// is read.
//
// A field no column fills (the profile, or the source's type, that a
// bank's export lacks) can be given one value for every row:
// [Mapping.SetValue], kept in the mapping file's "values". The build reads
// it as a column of its own whose cell in every row holds the value, so it
// is read and checked exactly as a cell of that field (a choice in the
// operator's words, an amount with its row's currency), and its problems
// say "the value set for every row" rather than name a cell;
// [Import.Values] shows what each value reads as. [Import.SetMapping]
// refuses a value for a field a column fills or the kind lacks.
//
// [Import.Settings] are how values are read: amounts in minor or major
// units, the decimal and group separators, the order of text dates. They
// are detected from the data; [Import.Examples] shows raw → parsed values
// of the amount and date columns under the current settings, and
// [Import.SetSettings] overrides them. Nothing is rounded or guessed: an
// amount that does not fit its currency, an id that lost digits in a
// spreadsheet, a date that reads two ways is a problem at its cell.
//
// # Building, correcting, progress
//
// [Import.Build] builds and validates every row and returns a [Result]:
// the [Element] of each row in file order and one schema.Report whose
// problems carry Sheet, Row and Column ([Where] writes them as
// "Transfers!F14"); [Result.Problems] gives one element's. Element values
// are built on demand, which keeps a 10,000-row import in a few
// megabytes: [Result.Value] for one, [Result.Request] for the request
// body. Rows of more than schema.MaxElements are counted and reported,
// never dropped: split them.
//
// After the operator corrects a cell, [Import.EditCell] rebuilds and
// revalidates that row only and updates the report in place.
//
// # Plausibility warnings
//
// Some values the API accepts are still very likely mistakes, and a build
// warns of them at their cells (warnings, never errors): an amount at
// least [OutlierFactor] times the median of its currency's amounts in the
// file (code [AmountOutlierCode]; a currency needs
// [MinAmountsForMedian] amounts), an amount above the operator's limit
// for its currency ([Import.SetAmountLimits], code
// [AmountAboveLimitCode]; [ParseAmountLimit] reads "EUR:10000", and
// "EUR:10.000,00" in German), and an id column of digits whose values do
// not all have the common length (code [IDLengthCode], at the first odd
// cell, naming a few and counting the rest). The build keeps each
// element's amounts and id lengths in a compact record, read while it
// builds the rows, so an edit compares the
// whole file again without building it: a corrected amount moves its
// currency's median. A JSON request body gets the same checks, by element
// rather than cell, through [RequestWarnings].
//
// [File.Table] and [Import.Build] take a [Progress] callback, called every
// 500 rows with the rows done and expected; [File.TableContext] and
// [Import.BuildContext] also stop when their context is cancelled. In the
// console they run in the Web Worker (app/worker/jobs), which turns progress
// into messages; on the page itself a callback that sleeps a millisecond
// lets it repaint.
//
// # Writing back
//
// app/workbook writes templates, error workbooks and CSV exports of a
// [Table] with its report; their Errors column ([ErrorsColumn]) is
// ignored on import. [TemplateColumns] gives a template's columns,
// [TemplateWords] their headers in the operator's language and
// [TemplateColumn.Reads] how each is typed. A template workbook carries
// its mark ([TemplateMark]) on a hidden sheet: a file that holds one
// ([File.Template]) is read as it says, its sheet, header row, columns,
// major units and time zone declared (reading.Declared), whatever rows
// the operator added or sorted. A choice is read from the API's value or
// its words in any of the console's languages ([ChoiceWords]); in a
// template's choice column any other word is an error at its cell. A
// template in the API's own form (a CSV one, or an older workbook)
// carries an example row, which an import leaves out while unchanged.
package ingest
