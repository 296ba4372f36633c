package ui

import (
	"testing"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// TestFailureSummaryIsWrittenFromItsFacts: the console says what the API
// answered in its own words, in its language, quoting the API's message.
func TestFailureSummaryIsWrittenFromItsFacts(t *testing.T) {
	defer setLanguage(lang.English)
	refused := &wire.APIFailure{Class: wire.ClassCredentials, Status: 401, Code: "UNAUTHORISED", Message: "token expired", Summary: "ignored"}
	invalid := &wire.APIFailure{Class: wire.ClassBadRequest, Status: 400, Fields: make([]wire.FieldFailure, 2)}
	lost := &wire.APIFailure{Class: wire.ClassNetwork, Detail: "connection reset"}
	for _, tc := range []struct {
		l    lang.Tag
		f    *wire.APIFailure
		want string
	}{
		{lang.English, refused, "The API did not accept the api-key or the token (UNAUTHORISED): token expired."},
		{lang.English, invalid, "The API refused the request as invalid; 2 invalid fields."},
		{lang.German, refused, "Die API hat den api-key oder das Token nicht angenommen (UNAUTHORISED): token expired."},
		{lang.French, invalid, "L’API a refusé la requête comme invalide\u202f; 2 champs invalides."},
		{lang.French, refused, "L’API n’a pas accepté l’api-key ou le jeton (UNAUTHORISED)\u202f: token expired."},
		{lang.German, lost, "Keine Antwort der API (connection reset). Ob sie die Anfrage ausgeführt hat, ist unbekannt; erneutes Senden mit derselben Idempotenz-Referenz ist sicher."},
	} {
		setLanguage(tc.l)
		if got := failureSummary(tc.f); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.l, got, tc.want)
		}
	}
}

// The time to wait counts in the singular for one second.
func TestRetryAfterCountsSeconds(t *testing.T) {
	defer setLanguage(lang.English)
	for _, tc := range []struct {
		l       lang.Tag
		seconds int
		want    string
	}{
		{lang.English, 1, "The API asks to wait 1 second before the next request."},
		{lang.German, 1, "Die API bittet, vor der nächsten Anfrage 1 Sekunde zu warten."},
		{lang.French, 30, "L’API demande d’attendre 30 secondes avant la prochaine requête."},
	} {
		setLanguage(tc.l)
		if got := retryAfterWords(tc.seconds); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.l, got, tc.want)
		}
	}
}
