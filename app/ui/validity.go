package ui

import (
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// The review calls a file valid only with what is left to check beside
// it: its warnings, and the amounts whose currency is not an ISO 4217
// code. Neither stops a submission, but "every element is valid" above
// them would hide what the API refuses when the bulk runs.

// validity says where a file without errors stands, in one sentence, and
// whether anything is left to check.
func validity(s *wire.Summary) (text string, clear bool) {
	var bad *wire.Total
	for i := range s.Totals {
		if s.Totals[i].Invalid {
			bad = &s.Totals[i]
		}
	}
	switch {
	case bad != nil && s.Warnings > 0:
		return tf("Every element is valid; %s to check, and the totals hold %s whose currency is not an ISO 4217 code%s.",
			plural(s.Warnings, "warning", "warnings"), plural(bad.Count, "amount", "amounts"), codesNote(bad.Codes, bad.MoreCodes)), false
	case bad != nil:
		return tf("Every element is valid, but the totals hold %s whose currency is not an ISO 4217 code%s.",
			plural(bad.Count, "amount", "amounts"), codesNote(bad.Codes, bad.MoreCodes)), false
	case s.Warnings > 0:
		return tf("Every element is valid; %s to check.", plural(s.Warnings, "warning", "warnings")), false
	}
	return t("Every element is valid."), true
}
