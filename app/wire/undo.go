package wire

// Undoing edits: every change to the review table's cells (JobEdit, and
// JobReplace's find-and-replace or capitals, each one change however many
// cells it changed) can be undone, last first, as long as the file is not
// read again. The cells come back as the file had them, their elements are
// validated again, and the change leaves the draft, so that a reload
// brings the document back as it stands, with the changes still to undo.
// GridRow.Edited marks the cells changed, with what they held before.

// JobUndo undoes the last change to the review table's cells.
// Request: Undo. Result: Undone.
const JobUndo = "undo"

// Undo is the request of JobUndo.
type Undo struct {
	Document int `json:"document"`
}

// Undone is the result of JobUndo.
type Undone struct {
	// Cells counts the cells put back; 0 when there was nothing to undo.
	Cells int `json:"cells"`
	// Element and Column are the first cell put back, for the page to
	// show; Column is -1 when the table does not show its column (it was
	// unmapped since).
	Element int `json:"element"`
	Column  int `json:"column"`
	// Label is the cell's row as the table names it ("14", "#3"); Text
	// is what the cell holds again.
	Label   string  `json:"label,omitempty"`
	Text    string  `json:"text"`
	Summary Summary `json:"summary"`
}

// An EditedCell is a cell of a GridRow the operator changed: Was is what
// it held before their first change.
type EditedCell struct {
	Column int    `json:"column"`
	Was    string `json:"was"`
}
