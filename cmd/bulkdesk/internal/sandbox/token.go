package sandbox

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
)

// accessToken serves POST /access_token: a token that acts for the
// identity named in the body. The back-office API needs the api-key only;
// the standard API the api-key and a valid bearer token too.
func (s *Sandbox) accessToken(w http.ResponseWriter, r *http.Request, a api) {
	if !s.apiKeyOK(r) {
		writeJSON(w, http.StatusUnauthorized, message("the api-key header is missing or not the sandbox's"))
		return
	}
	if a == standardAPI {
		if _, ok := s.bearer(r); !ok {
			writeJSON(w, http.StatusUnauthorized, message("the Authorization header must be \"Bearer TOKEN\" with the sandbox's token"))
			return
		}
	}
	var req struct {
		Identity bulkapi.Identity `json:"identity"`
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<16))
	if err == nil {
		err = json.Unmarshal(data, &req)
	}
	if err == nil {
		err = req.Identity.Check()
	}
	if err != nil {
		msg := "the body must be {\"identity\": {\"type\": \"CORPORATE\" or \"CONSUMER\", \"id\": \"digits\"}}: " + err.Error()
		if a == backOfficeAPI {
			writeJSON(w, http.StatusBadRequest, map[string]any{"message": msg, "validationErrors": []bulkapi.InvalidField{{FieldName: "identity", Error: "REQUIRED", Message: err.Error()}}})
		} else {
			badRequest(w, msg, bulkapi.InvalidField{FieldName: "identity", Error: "REQUIRED"})
		}
		return
	}
	tok := newToken()
	s.mu.Lock()
	s.tokens[tok] = principal{identity: req.Identity, api: a}
	s.mu.Unlock()
	// The two references answer differently: the back-office API wraps the
	// token in an object.
	var token any = tok
	if a == backOfficeAPI {
		token = map[string]string{"token": tok}
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"token":       token,
		"identity":    req.Identity,
		"credentials": map[string]string{"type": "API_CLIENT", "id": "1"},
		"status":      "STANDARD",
	})
}

func newToken() string {
	var b [24]byte
	_, _ = rand.Read(b[:])
	return "sbx-" + hex.EncodeToString(b[:])
}
