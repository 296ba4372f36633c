package draft

// The draft keeps its own form of the requests it replays, not the
// wire's: a draft outlives the console that wrote it (it sits in the
// browser across updates), while the protocol between page and worker
// changes with each build. These types change only with FormatVersion;
// the jobs convert them from and to the wire's requests at one place
// (app/worker/jobs/drafts.go). Their JSON names are those the wire's
// requests had when drafts were first kept, so drafts written then read.
// None holds a document number: a new worker numbers its documents anew.

// Open is how the draft's file was opened (the JobOpen request).
type Open struct {
	// FileName is the file's name; its extension says how to read it.
	FileName string `json:"fileName"`
	// Text, when set, holds pasted rows, read instead of the bytes.
	Text       string `json:"text,omitempty"`
	Kind       string `json:"kind,omitempty"`
	BackOffice bool   `json:"backOffice,omitempty"`
	Encoding   string `json:"encoding,omitempty"`
	Delimiter  string `json:"delimiter,omitempty"`
	TimeZone   string `json:"timeZone,omitempty"`
	Auto       bool   `json:"auto,omitempty"`
}

// Prepare is a change to how the file is read (a JobPrepare request).
type Prepare struct {
	Encoding     string         `json:"encoding,omitempty"`
	Delimiter    string         `json:"delimiter,omitempty"`
	Sheet        string         `json:"sheet,omitempty"`
	Kind         string         `json:"kind,omitempty"`
	BackOffice   *bool          `json:"backOffice,omitempty"`
	HeaderRow    int            `json:"headerRow,omitempty"`
	Columns      []ColumnChoice `json:"columns,omitempty"`
	Values       []FieldValue   `json:"values,omitempty"`
	SavedMapping string         `json:"savedMapping,omitempty"`
	Automatic    bool           `json:"automatic,omitempty"`
	Settings     *Settings      `json:"settings,omitempty"`
	Chosen       []string       `json:"chosen,omitempty"`
	Auto         bool           `json:"auto,omitempty"`
	Build        bool           `json:"build,omitempty"`
}

// A ColumnChoice maps one column (0-based) to a field, or to none ("").
type ColumnChoice struct {
	Column int    `json:"column"`
	Field  string `json:"field"`
}

// A FieldValue is one value for every row of a field.
type FieldValue struct {
	Field string `json:"field"`
	Value string `json:"value"`
}

// Settings are the reading settings a Prepare replaces.
type Settings struct {
	Amounts   string `json:"amounts"`
	Decimal   string `json:"decimal,omitempty"`
	Group     string `json:"group,omitempty"`
	DateOrder string `json:"dateOrder,omitempty"`
	Currency  string `json:"currency,omitempty"`
	TimeZone  string `json:"timeZone,omitempty"`
}

// Replace is a find-and-replace in one column of the review (a
// JobReplace request); Column is the index of a GridColumn.
type Replace struct {
	Column    int    `json:"column"`
	Find      string `json:"find"`
	With      string `json:"with"`
	MatchCase bool   `json:"matchCase,omitempty"`
	WholeCell bool   `json:"wholeCell,omitempty"`
	UpperCase bool   `json:"upperCase,omitempty"`
}

// AmountLimits are the amount limits set (a JobAmountLimits request):
// one per currency in major units, typed in the language Lang names.
type AmountLimits struct {
	Limits []string `json:"limits"`
	Lang   string   `json:"lang,omitempty"`
}
