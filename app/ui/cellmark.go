package ui

import (
	"strings"

	"github.com/bulkdesk/bulkdesk/app/wire"
)

// A cellMark is what a cell of the review table says beside its value:
// its problems, and whether the operator changed it, from what.
type cellMark struct {
	wire.CellMark
	Edited bool
	// Was is what the cell held before the operator's first change.
	Was string
}

// title is the cell's tooltip: its problems, then what it was.
func (m cellMark) title() string {
	lines := append([]string(nil), m.Messages...)
	if m.Edited {
		lines = append(lines, m.editedSentence())
	}
	return strings.Join(lines, "\n")
}

// editedWords say an edited cell to screen readers, after its value.
func (m cellMark) editedWords() string {
	if m.Was == "" {
		return t("edited, was empty")
	}
	return tf("edited, was: %s", m.Was)
}

// editedSentence says it in the line under the table and the tooltip.
func (m cellMark) editedSentence() string {
	if m.Was == "" {
		return t("Edited: it was empty.")
	}
	return tf("Edited: it was %s.", m.Was)
}
