package bulkapi

import (
	"net/http"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/apifailure"
)

// TestEveryClassHasItsWords: the words the console and the command line
// share name every class an operator can act on; the rest say the status.
func TestEveryClassHasItsWords(t *testing.T) {
	for _, c := range []Class{ClassBadRequest, ClassCredentials, ClassForbidden, ClassNotFound, ClassConflict, ClassRateLimited, ClassServer} {
		if apifailure.Words(string(c)) == "" {
			t.Errorf("class %s has no words", c)
		}
	}
	if got := (&Error{Status: http.StatusTeapot}).Summary(); !strings.HasPrefix(got, "the API answered 418") {
		t.Errorf("a status without a class: %q", got)
	}
	if got := (&Error{Status: http.StatusUnauthorized, Code: "X"}).Summary(); got != "the API did not accept the api-key or the token (X)" {
		t.Errorf("a 401: %q", got)
	}
}
