package wire

import "github.com/bulkdesk/bulkdesk/app/reading"

// The jobs of an import, in the order an operator meets them: open a file,
// prepare how it is read (sheet, kind, mapping, settings), build and
// validate it, then review it — windows of rows, edits, find-and-replace,
// the next problem — and export it. Every job after JobOpen names the
// document JobOpen created.

// JobOpen reads a file (its bytes are the message's Data) or pasted text,
// and prepares its import: the sheets, the kind (suggested from the
// headers when the request names none), the mapping and the settings.
// Request: Open. Result: Prepared; with Open.Auto, when nothing needs the
// operator's confirmation, the document is also built and Prepared.Summary
// is set. Progress: PhaseReading (rows) and PhaseValidating (elements).
const JobOpen = "open"

// Open is the request of JobOpen.
type Open struct {
	// FileName is the file's name; its extension says how to read it.
	FileName string `json:"fileName"`
	// Text, when set, is pasted text (tab-separated rows), read instead
	// of the message's Data.
	Text string `json:"text,omitempty"`
	// Kind is the bulk kind's id; "" lets the headers suggest one.
	Kind       string `json:"kind,omitempty"`
	BackOffice bool   `json:"backOffice,omitempty"`
	// Encoding and Delimiter override what is detected in a text file.
	Encoding  string `json:"encoding,omitempty"`
	Delimiter string `json:"delimiter,omitempty"`
	// TimeZone is the time zone the operator chose in Settings (an IANA
	// name), in which the file's dates are read unless they choose
	// another for it; "" leaves it to be chosen (Settings.TimeZone).
	TimeZone string `json:"timeZone,omitempty"`
	// Auto builds the document at once when its reading needs no
	// confirmation (see Prepared.Ready).
	Auto bool `json:"auto,omitempty"`
}

// JobPrepare changes how an opened document is read. Fields left at their
// zero value keep the current choice. Request: Prepare. Result: Prepared.
const JobPrepare = "prepare"

// Prepare is the request of JobPrepare.
type Prepare struct {
	Document int `json:"document"`
	// Encoding and Delimiter read a text file again.
	Encoding  string `json:"encoding,omitempty"`
	Delimiter string `json:"delimiter,omitempty"`
	// Sheet reads another sheet.
	Sheet string `json:"sheet,omitempty"`
	// Kind, with BackOffice, imports the rows as another kind.
	Kind       string `json:"kind,omitempty"`
	BackOffice *bool  `json:"backOffice,omitempty"`
	// HeaderRow makes another row the header row and maps again.
	HeaderRow int `json:"headerRow,omitempty"`
	// Columns maps columns to fields ("" unmaps).
	Columns []ColumnChoice `json:"columns,omitempty"`
	// Values gives fields no column fills one value for every row (""
	// removes it); the others set keep theirs.
	Values []FieldValue `json:"values,omitempty"`
	// SavedMapping is the text of a mapping file to apply.
	SavedMapping string `json:"savedMapping,omitempty"`
	// Automatic reads the table again as it was first opened: the header
	// row, the mapping and the settings detected, none chosen (undoing a
	// remembered mapping). Sheet, Encoding and Delimiter still apply.
	Automatic bool `json:"automatic,omitempty"`
	// Settings replaces the settings. Chosen names the settings the
	// operator decided (SettingAmounts, SettingDecimal, SettingGroup,
	// SettingDates, SettingCurrency, SettingTimeZone): each is recorded as their choice
	// even where it equals what was detected or the default, which
	// settles a reading the file left undecided.
	Settings *Settings `json:"settings,omitempty"`
	Chosen   []string  `json:"chosen,omitempty"`
	// Auto builds the document when its reading needs no confirmation;
	// Build builds it in any case (the operator confirmed it).
	Auto  bool `json:"auto,omitempty"`
	Build bool `json:"build,omitempty"`
}

// The names of the settings, in Prepare.Chosen and
// Prepared.SettingsMatter.
const (
	SettingAmounts  = "amounts"
	SettingDecimal  = "decimal"
	SettingGroup    = "group"
	SettingDates    = "dates"
	SettingCurrency = "currency"
	SettingTimeZone = "timeZone"
	// SettingSeparators, in SettingsMatter only, stands for
	// SettingDecimal and SettingGroup, which are chosen together.
	SettingSeparators = "separators"
)

// The formats of a file read (Prepared.Format), as ingest.Format names
// them.
const (
	FormatXLSX = "xlsx"
	FormatCSV  = "csv"
	FormatJSON = "json"
)

// A ColumnChoice maps one column (0-based) to a field, or to none.
type ColumnChoice struct {
	Column int    `json:"column"`
	Field  string `json:"field"`
}

// A FieldValue is one value for every row of a field (its path), as the
// operator typed or chose it.
type FieldValue struct {
	Field string `json:"field"`
	Value string `json:"value"`
}

// Prepared is how a document will be read: the result of JobOpen and
// JobPrepare.
type Prepared struct {
	Document int    `json:"document"`
	FileName string `json:"fileName"`
	// Format is FormatXLSX, FormatCSV or FormatJSON.
	Format string `json:"format"`
	// Request is set for a JSON request body, which needs no mapping.
	Request bool `json:"request,omitempty"`
	// Sheets lists the file's sheets; Sheet is the one read.
	Sheets []Sheet `json:"sheets,omitempty"`
	Sheet  string  `json:"sheet,omitempty"`
	// Encoding and Delimiter are what a text file was read with.
	Encoding  string   `json:"encoding,omitempty"`
	Delimiter string   `json:"delimiter,omitempty"`
	Notes     []string `json:"notes,omitempty"`

	// Kind is the kind the rows are read as; KindSuggested says the
	// headers chose it, and Suggestions ranks the kinds they fit.
	Kind          string           `json:"kind,omitempty"`
	BackOffice    bool             `json:"backOffice,omitempty"`
	KindSuggested bool             `json:"kindSuggested,omitempty"`
	Suggestions   []KindSuggestion `json:"suggestions,omitempty"`

	// HeaderRow is the header's row number; DataRows counts the rows with
	// values below it.
	HeaderRow int `json:"headerRow,omitempty"`
	DataRows  int `json:"dataRows,omitempty"`
	// Columns is the mapping, one entry per column with a header or values.
	Columns []ColumnView `json:"columns,omitempty"`
	// Targets are the fields a column can fill.
	Targets []Target `json:"targets,omitempty"`
	// Missing names the required fields no column fills and no value set
	// for every row does.
	Missing []string `json:"missing,omitempty"`
	// Values are the values set for every row, in their fields' order,
	// each as it reads in the first row.
	Values []SetValue `json:"values,omitempty"`
	// Settings are the ones in use; Detected what the file suggested.
	Settings Settings `json:"settings"`
	Detected Settings `json:"detected"`
	// SettingsMatter says which settings change how this file reads:
	// SettingAmounts, SettingSeparators, SettingDates, SettingCurrency,
	// SettingTimeZone.
	SettingsMatter []string `json:"settingsMatter,omitempty"`
	// Examples are raw → parsed values under the settings, the cells
	// behind an undecided reading first.
	Examples []Example `json:"examples,omitempty"`
	// Reading is every decision taken to read the file: how, and on what
	// evidence; Statements says it in words (reading.Describe).
	Reading    reading.Reading     `json:"reading"`
	Statements []reading.Statement `json:"statements,omitempty"`
	// Ready says the file can be built without asking the operator:
	// the kind was chosen, every column with values was recognised, no
	// required field is missing, every example reads, and the reading
	// needs no look (reading.Reading.NeedsLook: nothing undecided, the
	// amounts in the default minor units).
	Ready bool `json:"ready,omitempty"`
	// Summary is set when the document was built (JobOpen with Auto).
	Summary *Summary `json:"summary,omitempty"`
	// Draft says whether the document is kept in the browser (see
	// JobRestoreDraft).
	Draft DraftState `json:"draft"`
	// Phases says where the job's time went (see Phases).
	Phases *Phases `json:"phases,omitempty"`
}

// A Sheet is one sheet of a workbook.
type Sheet struct {
	Name   string `json:"name"`
	Hidden bool   `json:"hidden,omitempty"`
	Empty  bool   `json:"empty,omitempty"`
}

// A KindSuggestion is how well a file's headers fit a kind.
type KindSuggestion struct {
	Kind string `json:"kind"`
	// Matched counts the columns recognised as the kind's fields, of
	// Columns with a header.
	Matched int `json:"matched"`
	Columns int `json:"columns"`
	// Required counts the kind's required fields the columns fill, of
	// RequiredTotal.
	Required      int `json:"required"`
	RequiredTotal int `json:"requiredTotal"`
	// Evidence sums how surely the recognised headers name their fields
	// (ingest.Import.HeaderEvidence): a field's path more surely than a
	// name of it, a name more surely than the meaning of its words.
	Evidence int `json:"evidence,omitempty"`
}

// How a column came to be mapped (ColumnView.Match).
const (
	MatchExact   = "exact"
	MatchAlias   = "alias"
	MatchManual  = "manual"
	MatchIgnored = "ignored"
)

// A ColumnView is one column of the mapping.
type ColumnView struct {
	// Column is the column's index, 0-based; Letter names it ("F", or a
	// key in a JSON table).
	Column int    `json:"column"`
	Letter string `json:"letter"`
	Header string `json:"header"`
	// Field is the field the column fills, "" for none; Match says how
	// it was chosen (MatchExact, …), "" when the column is not mapped.
	Field string `json:"field,omitempty"`
	Match string `json:"match,omitempty"`
	// Suggestions are fields an unmapped header might mean.
	Suggestions []string `json:"suggestions,omitempty"`
	// Samples are the first values of the column, as the file shows them.
	Samples []string `json:"samples,omitempty"`
}

// A Target is a field a column can fill.
type Target struct {
	Path string `json:"path"`
	// Title names the field in the console's language.
	Title    string `json:"title,omitempty"`
	Required bool   `json:"required,omitempty"`
	Rules    string `json:"rules,omitempty"`
	// Choices are the values the contract allows it, when it lists them.
	Choices []Choice `json:"choices,omitempty"`
}

// A Choice is a value a field allows: Value as the API takes it, Words
// as the operator reads it, in the console's language.
type Choice struct {
	Value string `json:"value"`
	Words string `json:"words"`
}

// A SetValue is a value set for every row as it reads: Parsed is what it
// becomes, or Error why it cannot be read or is refused.
type SetValue struct {
	Field  string `json:"field"`
	Value  string `json:"value"`
	Parsed string `json:"parsed,omitempty"`
	Error  string `json:"error,omitempty"`
}

// Settings say how a file's values are read (see ingest.Settings).
type Settings struct {
	// Amounts is AmountsMinor or AmountsMajor.
	Amounts   string `json:"amounts"`
	Decimal   string `json:"decimal,omitempty"`
	Group     string `json:"group,omitempty"`
	DateOrder string `json:"dateOrder,omitempty"`
	Currency  string `json:"currency,omitempty"`
	// TimeZone is the IANA time zone of the dates of timestamp fields,
	// "" when not chosen (see ingest.Settings.TimeZone).
	TimeZone string `json:"timeZone,omitempty"`
}

// How amounts are written (Settings.Amounts).
const (
	// AmountsMinor: in minor units, as the API takes them (1050 is 10.50).
	AmountsMinor = reading.Minor
	// AmountsMajor: in major units, as people write them.
	AmountsMajor = reading.Major
)

// An Example shows one value read with the current settings.
type Example struct {
	Column string `json:"column"`
	Row    int    `json:"row"`
	Field  string `json:"field"`
	Raw    string `json:"raw"`
	Parsed string `json:"parsed,omitempty"`
	Error  string `json:"error,omitempty"`
}

// JobBuild builds and validates every element of a prepared document.
// Request: Build. Result: Summary. Progress: PhaseValidating, in rows.
const JobBuild = "build"

// Build is the request of JobBuild.
type Build struct {
	Document int `json:"document"`
}

// Summary is what an operator checks of a built document: its counts,
// control totals and first problems, and the review table's columns. Every
// job that changes the document returns it anew.
type Summary struct {
	Document   int    `json:"document"`
	Kind       string `json:"kind"`
	BackOffice bool   `json:"backOffice,omitempty"`
	FileName   string `json:"fileName"`
	// Sheet is the sheet read, "" for a JSON request body.
	Sheet string `json:"sheet,omitempty"`
	// ReadAs describes the settings the file was read with.
	ReadAs string `json:"readAs,omitempty"`
	// Reading says in words how the file's values were read, the
	// statements to look at twice marked (reading.Describe); none for a
	// JSON request body.
	Reading []reading.Statement `json:"reading,omitempty"`
	// Schedule says when the elements' timestamps fall, in words (see
	// Schedule).
	Schedule []string `json:"schedule,omitempty"`
	// Version grows with every change to the elements, so that the page
	// knows the rows it holds are stale.
	Version int `json:"version"`

	Elements int `json:"elements"`
	Valid    int `json:"valid"`
	Invalid  int `json:"invalid"`
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	// Duplicates counts the elements identical to an earlier one.
	Duplicates int `json:"duplicates,omitempty"`

	// Totals are the count and sum of amounts per currency, for kinds
	// that move money; Sources the same per source instrument, the
	// largest first, at most MaxSources of SourceCount.
	Totals      []Total       `json:"totals,omitempty"`
	Sources     []SourceTotal `json:"sources,omitempty"`
	SourceCount int           `json:"sourceCount,omitempty"`

	// Columns are the review table's columns.
	Columns []GridColumn `json:"columns"`
	// WorkerMemory is how many bytes of memory the worker's program holds.
	// WebAssembly memory only grows: it is the most the worker has needed.
	WorkerMemory uint64 `json:"workerMemory,omitempty"`
	// Problems is the first page of problems (JobProblems gives more).
	Problems []Problem `json:"problems"`
	// Draft says whether the document and its edits are kept in the
	// browser (see JobRestoreDraft).
	Draft DraftState `json:"draft"`
	// Undoable counts the changes to cells JobUndo can undo.
	Undoable int `json:"undoable,omitempty"`
	// FirstRows is the table's first window, FirstWindow rows of every
	// element: the page draws it with the summary, in one render, rather
	// than ask for it with JobRows first.
	FirstRows *Rows `json:"firstRows,omitempty"`
}

// MaxSources is how many source instruments a Summary lists.
const MaxSources = 20

// A Total is the count and exact sum of the amounts of one currency: the
// one wire form of a control total, in a review's Summary, a Prepared
// submission and a bulk's BulkTotals alike (summed by money.Totals).
type Total struct {
	// Currency is the ISO 4217 code, "" for the total of invalid
	// currencies.
	Currency string `json:"currency"`
	// Invalid marks the one total of the amounts whose currency is not a
	// valid ISO 4217 code ("eur", "EURO", none); Label is then "invalid
	// currency", else the code.
	Invalid bool   `json:"invalid,omitempty"`
	Label   string `json:"label"`
	Count   int    `json:"count"`
	// Minor is the sum in minor units, as decimal digits (it may exceed
	// 64 bits); Amount is it in major units as people write them
	// ("12,345.67"; "1,350 in minor units" for invalid currencies); Text
	// is it with the currency, for people: "EUR 12,345.67", or for invalid
	// currencies with the codes found.
	Minor  string `json:"minor"`
	Amount string `json:"amount"`
	Text   string `json:"text"`
	// Codes are the first invalid codes found, for an invalid total;
	// MoreCodes says there are others.
	Codes     []string `json:"codes,omitempty"`
	MoreCodes bool     `json:"moreCodes,omitempty"`
}

// A SourceTotal sums the elements drawn on one source instrument.
type SourceTotal struct {
	// Source names the instrument: "managed_accounts 1000001".
	Source string  `json:"source"`
	Count  int     `json:"count"`
	Totals []Total `json:"totals,omitempty"`
}

// A GridColumn is a column of the review table: a column of the file
// (Letter, Header) that fills Field, or for a JSON request body a field.
type GridColumn struct {
	Letter   string `json:"letter,omitempty"`
	Header   string `json:"header"`
	Field    string `json:"field"`
	Required bool   `json:"required,omitempty"`
	// Pinned marks the column that tells the rows apart (the kind's
	// first identity field the table shows): it stays in sight beside the
	// row numbers as the table scrolls sideways.
	Pinned bool `json:"pinned,omitempty"`
	// Set marks a value set for every row rather than a column of the
	// file: its cells all hold it, and only the mapping step changes it.
	Set bool `json:"set,omitempty"`
	// Money says the column holds the kind's amount (MoneyAmount) or its
	// currency (MoneyCurrency): the table shows them next to the pinned
	// column, so that a small screen sees who receives how much at once.
	Money string `json:"money,omitempty"`
}

// The sums of money a GridColumn holds (GridColumn.Money).
const (
	MoneyAmount   = "amount"
	MoneyCurrency = "currency"
)

// FirstWindow is how many rows the table asks for at a time, and the size
// of Summary.FirstRows.
const FirstWindow = 120

// JobRows returns a window of the review table. Request: RowsWindow.
// Result: Rows.
const JobRows = "rows"

// RowsWindow is the request of JobRows.
type RowsWindow struct {
	Document int `json:"document"`
	// Offset and Limit choose the rows, counted in the view.
	Offset int `json:"offset"`
	Limit  int `json:"limit"`
	// ErrorsOnly views only the elements with errors.
	ErrorsOnly bool `json:"errorsOnly,omitempty"`
	// Around, when set, moves the window to the element of that index
	// (Rows.Position then says where it is in the view).
	Around *int `json:"around,omitempty"`
}

// Rows is a window of the review table.
type Rows struct {
	Document int `json:"document"`
	Version  int `json:"version"`
	// Total counts the rows of the view; Offset is the first one's place.
	Total  int       `json:"total"`
	Offset int       `json:"offset"`
	Rows   []GridRow `json:"rows"`
	// Position is the place in the view of the element asked for with
	// Around, or -1 when it is not in the view.
	Position int `json:"position"`
}

// A GridRow is one element in the review table.
type GridRow struct {
	Element int `json:"element"`
	// Label says where it came from: "14" for a spreadsheet row, "#3"
	// for an element of a JSON request body.
	Label string `json:"label"`
	// Cells hold the values as the file shows them, one per column.
	Cells []string `json:"cells"`
	// Marks are the cells with problems.
	Marks []CellMark `json:"marks,omitempty"`
	// Problems are the element's problems that no column holds.
	Problems []string `json:"problems,omitempty"`
	// Severity is the worst of the row's problems: SeverityError,
	// SeverityWarning or "".
	Severity string `json:"severity,omitempty"`
	// Edited are the cells the operator changed (see JobUndo).
	Edited []EditedCell `json:"edited,omitempty"`
	// Numbers are the columns whose cell is a spreadsheet's number, in
	// Cells as the spreadsheet stores it (1234.56): the table writes it
	// as the operator's language writes numbers, and an edit of it
	// sends the number typed back in that form.
	Numbers []int `json:"numbers,omitempty"`
}

// A CellMark is a cell with problems.
type CellMark struct {
	Column   int      `json:"column"`
	Severity string   `json:"severity"`
	Messages []string `json:"messages"`
}

// JobAmountLimits sets the highest amounts the operator expects, per
// currency: an amount above its currency's limit is a warning at its
// cell. The limits apply to every document built afterwards and, when
// Document names a built one, to it at once. Request: AmountLimits.
// Result: AmountLimitsSet.
const JobAmountLimits = "amount-limits"

// AmountLimits is the request of JobAmountLimits.
type AmountLimits struct {
	// Document, when not 0, is a built document to check again.
	Document int `json:"document,omitempty"`
	// Limits are written in major units, one per currency: "EUR:10000",
	// "USD:2500.50". None removes every limit.
	Limits []string `json:"limits"`
	// Lang is the language (app/lang) the limits are typed in: their
	// amounts are read as it writes numbers ("EUR:10.000,50" in German),
	// and the limits read are written back so. "" reads the plain form
	// and English.
	Lang string `json:"lang,omitempty"`
}

// AmountLimitsSet is the result of JobAmountLimits: the limits as read,
// and the document's new summary when one was named.
type AmountLimitsSet struct {
	Limits  []string `json:"limits"`
	Summary *Summary `json:"summary,omitempty"`
}

// JobEdit changes one cell of the review table and validates its element
// again. Request: Edit. Result: Edited.
const JobEdit = "edit"

// Edit is the request of JobEdit.
type Edit struct {
	Document int `json:"document"`
	Element  int `json:"element"`
	// Column is the index of a GridColumn.
	Column int    `json:"column"`
	Text   string `json:"text"`
}

// Edited is the result of JobEdit.
type Edited struct {
	Row     GridRow `json:"row"`
	Summary Summary `json:"summary"`
}

// JobReplace finds and replaces text in one column of the review table,
// validating every element it changes. Request: Replace. Result: Replaced.
const JobReplace = "replace"

// Replace is the request of JobReplace.
type Replace struct {
	Document int `json:"document"`
	// Column is the index of a GridColumn.
	Column int    `json:"column"`
	Find   string `json:"find"`
	With   string `json:"with"`
	// MatchCase compares letters exactly; WholeCell replaces only cells
	// whose whole value is Find.
	MatchCase bool `json:"matchCase,omitempty"`
	WholeCell bool `json:"wholeCell,omitempty"`
	// UpperCase, instead of Find and With, writes every cell of the
	// column in capital letters: the fix of lower-case currency codes.
	UpperCase bool `json:"upperCase,omitempty"`
}

// Replaced is the result of JobReplace.
type Replaced struct {
	// Cells counts the cells changed.
	Cells   int     `json:"cells"`
	Summary Summary `json:"summary"`
}

// JobNextProblem finds the next (or previous) problem in row order: the
// marked cells of a row left to right, then the next row's.
// Request: NextProblem. Result: FoundProblem.
const JobNextProblem = "next-problem"

// NextProblem is the request of JobNextProblem.
type NextProblem struct {
	Document int `json:"document"`
	// After is the element to start from; -1 starts before the first.
	// AfterColumn is the column of the cell to start from, exclusive:
	// the element's marked cells to its right (to its left, with Back)
	// come first. Nil leaves the whole element behind.
	After       int  `json:"after"`
	AfterColumn *int `json:"afterColumn,omitempty"`
	// Back searches towards the first element.
	Back bool `json:"back,omitempty"`
	// ErrorsOnly skips warnings, and counts positions in the view of
	// elements with errors.
	ErrorsOnly bool `json:"errorsOnly,omitempty"`
}

// FoundProblem is the result of JobNextProblem.
type FoundProblem struct {
	Found bool `json:"found"`
	// Wrapped says the search went past the end and started again.
	Wrapped bool `json:"wrapped,omitempty"`
	Element int  `json:"element"`
	// Column is the GridColumn of its first marked cell, or -1.
	Column int `json:"column"`
	// Position is the element's place in the view.
	Position int     `json:"position"`
	Problem  Problem `json:"problem"`
}

// JobExport writes a file of the document for the operator to download.
// Request: Export. Result: Exported, with the file's bytes as Data.
const JobExport = "export"

// What an export holds.
const (
	// ExportRequest is the request body exactly as it would be sent.
	ExportRequest = "request"
	// ExportErrorWorkbook is the operator's rows as xlsx, the invalid
	// cells highlighted and commented.
	ExportErrorWorkbook = "error-workbook"
	// ExportErrorCSV is the same as CSV, with an Errors column.
	ExportErrorCSV = "error-csv"
	// ExportManifest is the summary and control totals as CSV.
	ExportManifest = "manifest"
	// ExportMapping is the mapping file, to reuse with the next file.
	ExportMapping = "mapping"
)

// Export is the request of JobExport.
type Export struct {
	Document int    `json:"document"`
	What     string `json:"what"`
}

// Exported is the result of JobExport.
type Exported struct {
	FileName  string `json:"fileName"`
	MediaType string `json:"mediaType"`
	Size      int    `json:"size"`
}
