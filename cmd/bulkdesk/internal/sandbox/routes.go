package sandbox

import (
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/schema"
)

// api says which of the two APIs a request came through.
type api bool

const (
	standardAPI   api = false
	backOfficeAPI api = true
)

func (a api) String() string {
	if a == backOfficeAPI {
		return "back-office"
	}
	return "standard"
}

// Base paths: the standard API, and the back-office API under the path of
// the reference and under the short path some clients were given.
const (
	StandardBase   = "/multi"
	BackOfficeBase = "/multi/backoffice"
	backOfficeAlt  = "/backoffice"
)

func (s *Sandbox) routes() {
	s.mux = http.NewServeMux()
	for prefix, a := range map[string]api{StandardBase: standardAPI, BackOfficeBase: backOfficeAPI, backOfficeAlt: backOfficeAPI} {
		s.mux.HandleFunc("POST "+prefix+"/access_token", s.withAPI(a, s.accessToken))
		s.mux.HandleFunc("GET "+prefix+"/bulks", s.withAuth(a, s.listBulks))
		s.mux.HandleFunc("GET "+prefix+"/bulks/{bulk_id}", s.withAuth(a, s.getBulk))
		s.mux.HandleFunc("GET "+prefix+"/bulks/{bulk_id}/operations", s.withAuth(a, s.listOperations))
		s.mux.HandleFunc("POST "+prefix+"/bulks/{bulk_id}/{action}", s.withAuth(a, s.act))
		for _, k := range schema.Kinds() {
			ep, err := k.Endpoint(bool(a))
			if err != nil {
				continue
			}
			s.mux.HandleFunc(ep.Method+" "+prefix+ep.Path, s.withAuth(a, s.submitter(k)))
		}
	}
	s.mux.HandleFunc("POST /sandbox/faults", s.armFaults)
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, message("no such endpoint in the sandbox: "+r.Method+" "+r.URL.Path+" (the standard API is under "+StandardBase+", the back-office API under "+BackOfficeBase+")"))
	})
}

// A principal is who a bearer token acts for, and through which API it was
// issued.
type principal struct {
	identity bulkapi.Identity
	api      api
}

type apiHandler func(w http.ResponseWriter, r *http.Request, a api)
type authHandler func(w http.ResponseWriter, r *http.Request, p principal)

func (s *Sandbox) withAPI(a api, h apiHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { h(w, r, a) }
}

// withAuth checks the api-key and the bearer token before h runs. A token
// issued for one API is refused (403) by the other.
func (s *Sandbox) withAuth(a api, h authHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.apiKeyOK(r) {
			writeJSON(w, http.StatusUnauthorized, message("the api-key header is missing or not the sandbox's"))
			return
		}
		p, ok := s.bearer(r)
		if !ok {
			writeJSON(w, http.StatusUnauthorized, message("the Authorization header must be \"Bearer TOKEN\" with the sandbox's token or one it issued"))
			return
		}
		if p.api != a {
			writeJSON(w, http.StatusForbidden, map[string]string{"errorCode": "INSUFFICIENT_PERMISSIONS", "message": "this token was issued for the " + p.api.String() + " API"})
			return
		}
		h(w, r, p)
	}
}

func (s *Sandbox) apiKeyOK(r *http.Request) bool {
	got := r.Header.Get(bulkapi.HeaderAPIKey)
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(s.cfg.APIKey)) == 1
}

func (s *Sandbox) bearer(r *http.Request) (principal, bool) {
	auth := r.Header.Get("Authorization")
	scheme, tok, ok := strings.Cut(auth, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || tok == "" {
		return principal{}, false
	}
	return s.tokenPrincipal(strings.TrimSpace(tok))
}

func (s *Sandbox) tokenPrincipal(tok string) (principal, bool) {
	if subtle.ConstantTimeCompare([]byte(tok), []byte(s.cfg.Token)) == 1 {
		return principal{identity: s.cfg.Identity, api: standardAPI}, true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.tokens[tok]
	return p, ok
}

// writeJSON answers with a JSON body.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func message(m string) map[string]string { return map[string]string{"message": m} }

// syntaxError is the body of a 400 on the standard API.
type syntaxError struct {
	Message      string `json:"message"`
	SyntaxErrors struct {
		InvalidFields []bulkapi.InvalidField `json:"invalidFields"`
	} `json:"syntaxErrors"`
}

func badRequest(w http.ResponseWriter, msg string, fields ...bulkapi.InvalidField) {
	var b syntaxError
	b.Message = msg
	b.SyntaxErrors.InvalidFields = fields
	if b.SyntaxErrors.InvalidFields == nil {
		b.SyntaxErrors.InvalidFields = []bulkapi.InvalidField{}
	}
	writeJSON(w, http.StatusBadRequest, b)
}

func conflict(w http.ResponseWriter, code, msg string) {
	writeJSON(w, http.StatusConflict, map[string]string{"errorCode": code, "message": msg})
}
