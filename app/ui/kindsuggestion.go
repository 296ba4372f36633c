package ui

import "github.com/bulkdesk/bulkdesk/app/wire"

// kindSuggestion says which kind the headers suggest (title) and how many
// of the file's columns match its fields: one column matches in the
// singular, as German and French agree the verb with it.
func kindSuggestion(title string, suggestions []wire.KindSuggestion) string {
	if len(suggestions) == 0 {
		return tf("The headers suggest %s. Confirm it, or choose another kind above.", title)
	}
	s := suggestions[0]
	if s.Matched == 1 {
		return tf("The headers suggest %s. 1 of its %s columns matches this kind's fields. Confirm it, or choose another kind above.", title, count(s.Columns))
	}
	return tf("The headers suggest %s. %s of its %s columns match this kind's fields. Confirm it, or choose another kind above.", title, count(s.Matched), count(s.Columns))
}
