// Package termsafe keeps text from outside the program (a file's name, a
// cell, a receipt, an answer of the API, a webhook event) from steering
// the terminal that shows it.
//
// A terminal obeys the control characters it is sent: ESC starts a
// sequence that moves the cursor, erases a line or recolours the text; a
// carriage return goes back to the line's start; C1 controls (U+0080 to
// U+009F, and the raw byte 0x9b, CSI to many terminals) do as ESC does;
// bidirectional overrides (U+202E and its kin) reverse what follows. A
// maker's receipt named "x\x1b[1A\x1b[2K…" could draw a false "matches"
// line over the review's verdict. termsafe writes each such character as
// an escape that reads as what it is:
//
//	\x1b \r \n \t   C0 controls, and invalid UTF-8 bytes (\x9b)
//	\u007f \u0085   DEL and C1 controls
//	\u202e \u2028   bidirectional controls, line and paragraph separators
//
// Everything that reaches a terminal goes through two cuts:
//
//   - [Writer] wraps a command's standard output and error: whatever is
//     written through it, the program's own text or a value from outside,
//     reaches the terminal with every control character but newline and
//     tab escaped. Its escapes are valid JSON escapes where encoding/json
//     leaves a character raw (DEL, C1, bidirectional controls), so JSON
//     output stays JSON and decodes to the same values.
//   - [Fprintf], [Fprintln] and [Line] format a value from outside for one
//     line of text: its newlines and tabs are escaped too, so that a value
//     cannot start a line of its own ("matches: …") or shift a table's
//     columns. The format, the program's own text, keeps its newlines.
package termsafe
