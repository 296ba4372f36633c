package contract

// Error is a problem with the contract file, naming the file and the place.
// The place is "line N" for a syntax error, a JSON pointer into the document
// otherwise, or empty when the problem concerns the whole file.
type Error struct{ File, Place, Msg string }

func (e *Error) Error() string {
	if e.Place == "" {
		return e.File + ": " + e.Msg
	}
	return e.File + ": " + e.Place + ": " + e.Msg
}
