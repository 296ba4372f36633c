package wire

// The draft: the import in progress is kept in the worker's IndexedDB
// (package draft) as the file's bytes and a log of what the operator did
// to it, so that the page can bring it back after a reload, another page,
// or the submission's "Back to the file". JobOpen starts a draft; the jobs
// that change the document (JobPrepare, JobBuild, JobEdit, JobReplace,
// JobAmountLimits) add to it before they answer, so that a change the page
// shows as saved is stored. JobUndo takes the change it undoes out of it.
// A successful JobSubmit and JobDiscardDraft remove it.

// JobRestoreDraft brings back the draft: the document itself when the
// worker still holds it, else the file opened again from the draft with
// every operation replayed in order. Request: RestoreDraft. Result:
// Restored. Progress: as JobOpen.
const JobRestoreDraft = "restore-draft"

// RestoreDraft is the request of JobRestoreDraft.
type RestoreDraft struct{}

// Restored is the result of JobRestoreDraft.
type Restored struct {
	// Found says there was a draft; Prepared is then how its document is
	// read, with its Summary when it is built.
	Found    bool      `json:"found"`
	Prepared *Prepared `json:"prepared,omitempty"`
	// Edits counts the cell edits and replacements kept.
	Edits int `json:"edits,omitempty"`
	// Limits are the amount limits in use, as JobAmountLimits reads them.
	Limits []string `json:"limits,omitempty"`
	// Problem, when set, says why a draft could not be restored; it is
	// then discarded.
	Problem string `json:"problem,omitempty"`
}

// JobDiscardDraft removes the draft ("Start over"). Request: DiscardDraft.
// Result: DiscardDraft.
const JobDiscardDraft = "discard-draft"

// DiscardDraft is the request and result of JobDiscardDraft.
type DiscardDraft struct{}

// DraftState is what a Summary says of the draft.
type DraftState struct {
	// Kept says the document's draft is stored in the browser.
	Kept bool `json:"kept"`
	// Edits counts the cell edits and replacements it holds.
	Edits int `json:"edits,omitempty"`
	// Error, when set, says why the last change could not be stored.
	Error string `json:"error,omitempty"`
}
