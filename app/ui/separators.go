package ui

import "github.com/bulkdesk/bulkdesk/app/reading"

// decimalChoice names a decimal mark ("." or ",") among the choices of
// how the file reads, with an amount written as the file groups its
// digits (group, the settings' separator): "Comma: 1 234,56" for a file
// grouped with spaces, not the English 1.234,56.
func decimalChoice(mark, group string) string {
	if mark == "." {
		return tf("Point: %s", reading.AmountExample(mark, group))
	}
	return tf("Comma: %s", reading.AmountExample(mark, group))
}
