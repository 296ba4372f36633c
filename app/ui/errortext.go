package ui

import (
	"errors"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// errorText is what the screen shows of err, in the console's language,
// and the one place the page reads an error's text (a test holds the
// others to it). A worker's Error is shown as the worker said it: in the
// operator's language, with its reference when something went wrong
// inside. An error the page has said already (saidError) is shown as it
// is, and one that can be said (lang.Sayer) is said. Anything else,
// whose text is not for people (a decoder's, the browser's, an error of
// the worker's that it could not say), goes to the browser's console
// under a fresh reference, and the screen says that something went wrong
// inside, with that reference.
func errorText(err error) string {
	if err == nil {
		return ""
	}
	var we *wire.Error
	if errors.As(err, &we) && (we.Code != wire.CodeInternal || we.Ref != "") {
		return we.Message
	}
	var said saidError
	if errors.As(err, &said) {
		return string(said)
	}
	var sayer lang.Sayer
	if errors.As(err, &sayer) {
		return consoleLang.Say(err)
	}
	ref := wire.NewRef()
	app.Log("reference "+ref+":", err.Error())
	return consoleLang.Say(wire.Inside(ref))
}

// saidError is an error whose text is already for people: a sentence the
// page wrote in the console's language with t or tf, or a finding about
// the operator's own file shown word for word (the contract reader's).
// errorText shows it as it is.
type saidError string

func (e saidError) Error() string { return string(e) }
