// Package lang holds the languages the console speaks and its words in
// each of them.
//
// The English text is the key: code writes l.T("Submit") or
// l.F("%s of %s", a, b) (the console's components t and tf), marks a text
// kept in a table for later with Mark, and a catalog (de.json, fr.json)
// gives each English text its German and French form. English needs no
// catalog. A test reads the code for every text it translates, and takes
// the words Bulkdesk gives the contract (kinds, fields, the overlay's
// rules), and holds each catalog to them: every text has every language,
// with the same placeholders, and no catalog keeps a text nothing shows.
//
// Numbers are written for the language as well: Tag.Localize re-punctuates
// a number written the English way ("1,234.56", as money.FormatWith writes
// it) without reading it as a number, so an amount is never rounded on its
// way to the screen.
package lang
