package ui

import (
	"testing"

	"github.com/bulkdesk/bulkdesk/app/lang"
)

// The decimal mark's choices write their example with the file's own
// digit groups, in the console's language.
func TestDecimalChoicesShowTheFilesGroups(t *testing.T) {
	defer setLanguage(consoleLang)
	for _, tc := range []struct {
		l                 lang.Tag
		mark, group, want string
	}{
		{lang.French, ",", " ", "Virgule\u202f: 1\u00a0234,56"},
		{lang.French, ",", "", "Virgule\u202f: 1.234,56"},
		{lang.German, ".", "'", "Punkt: 1'234.56"},
		{lang.English, ".", ",", "Point: 1,234.56"},
	} {
		setLanguage(tc.l)
		if got := decimalChoice(tc.mark, tc.group); got != tc.want {
			t.Errorf("%s %q with groups %q: %q, want %q", tc.l, tc.mark, tc.group, got, tc.want)
		}
	}
}
