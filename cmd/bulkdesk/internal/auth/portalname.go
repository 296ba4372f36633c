package auth

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxNameBytes is the longest user name taken, in bytes.
const maxNameBytes = 256

// portalNameFault says what keeps s from being the name a portal gives
// its signed-in user, or "" when nothing does. Portals name people by
// login, email address or DOMAIN\login: letters of any script with their
// marks, digits, and . - _ + @ \ with spaces between them. Anything else
// means the header is not one person's name: a comma above all, which is
// how a proxy joins a client's value to its own ("mallory, alice"), and
// quotes, semicolons, invisible or control characters, which make a name
// read as another in a log or a record.
func portalNameFault(s string) string {
	switch {
	case len(s) > maxNameBytes:
		return fmt.Sprintf("longer than %d bytes", maxNameBytes)
	case !utf8.ValidString(s):
		return "not UTF-8"
	case strings.TrimSpace(s) != s:
		return "spaces at an end"
	}
	for _, r := range s {
		switch {
		case unicode.IsLetter(r), unicode.IsMark(r), unicode.IsDigit(r), strings.ContainsRune(`.-_+@\ `, r):
		case r == ',':
			return "a comma, as when two values are joined"
		default:
			return fmt.Sprintf("the character %U", r)
		}
	}
	return ""
}
