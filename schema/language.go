package schema

import "github.com/bulkdesk/bulkdesk/app/lang"

// The validator writes its messages in the language its Options name
// (English when none): only the messages change; codes, pointers, field
// paths and values stay as they are, so a message in any language still
// names the field by its path.

// counted writes "1 character", "12 characters" in w.
func counted(w lang.Tag, n int, one, many string) string {
	if n == 1 {
		return w.T(one)
	}
	return w.F(many, w.Count(n))
}
