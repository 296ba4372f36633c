package wire

import "fmt"

// A Connection says where the worker calls the API and with which
// credentials. The page keeps it (in memory, or for the tab when the
// operator opts in) and sends it with every job that calls the API; the
// worker uses it for that job and keeps nothing of it.
type Connection struct {
	// APIURL and BackOfficeURL are absolute base URLs: the console's
	// same-origin proxy (https://console.example/api) or the API itself.
	APIURL        string `json:"apiURL"`
	BackOfficeURL string `json:"backOfficeURL,omitempty"`
	APIKey        string `json:"apiKey,omitempty"`
	// Token is the standard API's bearer token.
	Token string `json:"token,omitempty"`
	// BackOfficeToken is a token obtained for an identity with
	// JobAccessToken, for the back-office API.
	BackOfficeToken string `json:"backOfficeToken,omitempty"`
	// BackOffice makes the job call the back-office API.
	BackOffice bool `json:"backOffice,omitempty"`
	// Record, when set, is where the console's server keeps the repeat
	// check's record of the API's bulks (…/record; the job adds /api or
	// /backoffice): set when the calls go through its proxy.
	Record string `json:"record,omitempty"`
	// Proxy says the calls go through the console's server (its api/ and
	// backoffice/ proxy), which takes the console's own headers: a
	// submission names its file in bulkapi.HeaderFileName.
	Proxy bool `json:"proxy,omitempty"`
	// ServerKey says the console's server adds the api-key to these calls
	// through its proxy: APIKey is then empty, and no api-key is missing.
	ServerKey bool `json:"serverKey,omitempty"`
}

// NeedsAPIKey says an api-key is missing: none is set and the server
// supplies none.
func (c Connection) NeedsAPIKey() bool { return c.APIKey == "" && !c.ServerKey }

// Record paths below Connection.Record, by API.
const (
	RecordStandard   = "api"
	RecordBackOffice = "backoffice"
)

// RecordURL is where the server keeps the record of the API the
// connection calls; "" when it keeps none.
func (c Connection) RecordURL() string {
	if c.Record == "" {
		return ""
	}
	if c.BackOffice {
		return c.Record + "/" + RecordBackOffice
	}
	return c.Record + "/" + RecordStandard
}

// String shows where the connection points, never its secrets.
func (c Connection) String() string {
	set := func(s string) string {
		if s == "" {
			return "unset"
		}
		return "set"
	}
	apiKey := set(c.APIKey)
	if c.ServerKey {
		apiKey = "the server's"
	}
	return fmt.Sprintf("wire.Connection{APIURL: %q, BackOfficeURL: %q, BackOffice: %t, APIKey: %s, Token: %s, BackOfficeToken: %s}",
		c.APIURL, c.BackOfficeURL, c.BackOffice, apiKey, set(c.Token), set(c.BackOfficeToken))
}

// GoString is String, so that %#v shows no secret either.
func (c Connection) GoString() string { return c.String() }

// JobAccessToken obtains a back-office token for an identity with
// POST /access_token. Request: AccessTokenRequest. Result: AccessToken.
const JobAccessToken = "access-token"

// AccessTokenRequest is the request of JobAccessToken.
type AccessTokenRequest struct {
	Connection Connection `json:"connection"`
	// Identity is TYPE:ID, such as CORPORATE:1001.
	Identity string `json:"identity"`
}

// AccessToken is the result of JobAccessToken.
type AccessToken struct {
	// Token is the bearer token for the back-office API; empty when the
	// API refused (see Failure).
	Token    string `json:"token,omitempty"`
	Identity string `json:"identity,omitempty"`
	// Failure is the API's refusal, if any.
	Failure *APIFailure `json:"failure,omitempty"`
}

// An APIFailure is a call the API refused or never answered, as the page
// shows it: what the operator can do, the request-ref to quote to support,
// and every syntax error next to the element and file row it names.
type APIFailure struct {
	// Class is what sort of failure it is: ClassBadRequest, …, or
	// ClassNetwork when no answer came.
	Class string `json:"class"`
	// Status is the HTTP status; 0 when no answer came.
	Status int `json:"status,omitempty"`
	// Call is the method and path refused, such as "POST /bulks/transfers".
	Call       string `json:"call,omitempty"`
	RequestRef string `json:"requestRef,omitempty"`
	// Code is the API's errorCode (409, 403), when it gave one.
	Code string `json:"code,omitempty"`
	// Message is the API's own explanation.
	Message string `json:"message,omitempty"`
	// Summary is one line for operators, in English; the console writes
	// its own from the fields above in the operator's language.
	Summary string `json:"summary"`
	// Detail is what the transport said when no answer came.
	Detail string `json:"detail,omitempty"`
	// RetryAfter is how many seconds the API asked to wait (429).
	RetryAfter int `json:"retryAfter,omitempty"`
	// Fields are the syntax errors of a 400, each placed in the file.
	Fields []FieldFailure `json:"fields,omitempty"`
	// Chunk and Ref name the chunk of a submission that failed; Chunk is
	// NoChunk for other calls.
	Chunk int    `json:"chunk"`
	Ref   string `json:"ref,omitempty"`
}

// NoChunk is the Chunk of an APIFailure of a call other than a chunk's
// submission (0 is the first chunk).
const NoChunk = -1

// The failure classes (APIFailure.Class): those of the API's answers,
// as bulkapi.Class names them, and ClassNetwork.
const (
	ClassBadRequest  = "bad-request"  // 400: fix the request
	ClassCredentials = "credentials"  // 401: api-key or token invalid
	ClassForbidden   = "forbidden"    // 403: not allowed for this identity
	ClassNotFound    = "not-found"    // 404
	ClassConflict    = "conflict"     // 409: the bulk's state forbids it, or a reused ref
	ClassRateLimited = "rate-limited" // 429: wait and retry
	ClassServer      = "server"       // 5xx: retry later
	// ClassOther is any other failure, the page's own too (a job that
	// could not run).
	ClassOther = "other"
	// ClassNetwork: the call got no answer; whether the API acted on it
	// is unknown.
	ClassNetwork = "network"
)

// A FieldFailure is one syntax error of a 400 answer.
type FieldFailure struct {
	// Element is the index, in the operator's request, of the element the
	// error names; RequestLevel when it names none.
	Element int `json:"element"`
	// Sheet and Row locate the element in a spreadsheet or CSV file.
	Sheet string `json:"sheet,omitempty"`
	Row   int    `json:"row,omitempty"`
	// Field is the field's name within the element.
	Field string `json:"field,omitempty"`
	// Error is the sort of error (REQUIRED, RANGE, …) and Params its
	// parameters.
	Error  string   `json:"error,omitempty"`
	Params []string `json:"params,omitempty"`
	// Text is the error as the API wrote it.
	Text string `json:"text"`
}
