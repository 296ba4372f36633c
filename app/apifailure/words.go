// Package apifailure says what each class of the API's refusals means, in
// the words an operator reads: one definition for the API client's
// errors (the command line's) and the console, which writes them in its
// language. It holds no client, so that the page can link it.
package apifailure

import "github.com/bulkdesk/bulkdesk/app/lang"

// words are the phrases of the classes (bulkapi.Class values), English
// and a key of the translations.
var words = map[string]string{
	"bad-request":  lang.Mark("the API refused the request as invalid"),
	"credentials":  lang.Mark("the API did not accept the api-key or the token"),
	"forbidden":    lang.Mark("these credentials are not allowed to do this"),
	"not-found":    lang.Mark("not found"),
	"conflict":     lang.Mark("the bulk process is not in a state that allows this"),
	"rate-limited": lang.Mark("too many requests"),
	"server":       lang.Mark("the API failed"),
}

// Words returns what a refusal of class means, in English; "" for a class
// without words of its own (the status then says it).
func Words(class string) string { return words[class] }
