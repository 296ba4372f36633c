package ui

import (
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
)

// ownEndings are the endings the workers give the files the console
// writes after the operator's file name (pay.csv → pay-results.xlsx). A
// download says them in the operator's language, in ASCII letters, as
// file names travel by mail and through file shares: pay-ergebnisse.xlsx,
// pay-resultats.xlsx. The template's name is the kind's, said by the
// worker already.
var ownEndings = []string{
	lang.Mark("-results.xlsx"),
	lang.Mark("-invalid.xlsx"),
	lang.Mark(".receipt.json"),
	lang.Mark(".receipt.html"),
	lang.Mark(".request.json"),
	lang.Mark(".errors.xlsx"),
	lang.Mark(".errors.csv"),
	lang.Mark(".manifest.csv"),
	lang.Mark(".mapping.json"),
	lang.Mark(".review.json"),
}

// downloadName is the name a file the console writes is downloaded as:
// its ending in the console's language, the operator's own part as it is.
func downloadName(name string) string {
	for _, end := range ownEndings {
		if stem, ok := strings.CutSuffix(name, end); ok && stem != "" {
			return stem + t(end)
		}
	}
	return name
}
