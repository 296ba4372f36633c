package bulkapi

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
)

// IdentityType is the sort of identity a token acts for.
type IdentityType string

// The identity types.
const (
	Corporate IdentityType = "CORPORATE"
	Consumer  IdentityType = "CONSUMER"
)

// An Identity names a corporate or consumer identity.
type Identity struct {
	Type IdentityType `json:"type"`
	ID   string       `json:"id"`
}

// ParseIdentity reads "CORPORATE:123" or "consumer:45".
func ParseIdentity(s string) (Identity, error) {
	t, id, ok := strings.Cut(strings.TrimSpace(s), ":")
	ident := Identity{Type: IdentityType(strings.ToUpper(strings.TrimSpace(t))), ID: strings.TrimSpace(id)}
	if !ok {
		return Identity{}, lang.Errorf("identity %q: want TYPE:ID, such as CORPORATE:123", s)
	}
	return ident, ident.Check()
}

// Check reports whether the identity is well formed.
func (i Identity) Check() error {
	if i.Type != Corporate && i.Type != Consumer {
		return lang.Errorf("identity type %q: want %s or %s", string(i.Type), string(Corporate), string(Consumer))
	}
	if i.ID == "" || strings.Trim(i.ID, "0123456789") != "" {
		return lang.Errorf("identity id %q: an identity id is digits only", i.ID)
	}
	return nil
}

func (i Identity) String() string { return string(i.Type) + ":" + i.ID }

// An AccessToken is a bearer token that acts for an identity.
type AccessToken struct {
	Token    string
	Identity Identity
}

// String never shows the token.
func (t AccessToken) String() string { return "access token for " + t.Identity.String() }

// GoString is String, so that %#v shows no secret either.
func (t AccessToken) GoString() string { return t.String() }

// tokenAnswer reads both answers to POST /access_token: the standard API
// sends the token as a string, the back-office API as {"token": "…"}.
type tokenAnswer struct {
	Token    json.RawMessage `json:"token"`
	Identity Identity        `json:"identity"`
}

func (a tokenAnswer) token() (string, error) {
	var s string
	if json.Unmarshal(a.Token, &s) == nil && s != "" {
		return s, nil
	}
	var o struct {
		Token string `json:"token"`
	}
	if json.Unmarshal(a.Token, &o) == nil && o.Token != "" {
		return o.Token, nil
	}
	return "", fmt.Errorf("the answer holds no token")
}

// AccessToken obtains a token that acts for identity id. On the back-office
// API the api-key alone authorises it; on the standard API the client's
// token does too. Continue with WithToken(t.Token).
func (c *Client) AccessToken(ctx context.Context, id Identity) (*AccessToken, error) {
	if err := id.Check(); err != nil {
		return nil, err
	}
	body, err := json.Marshal(map[string]Identity{"identity": id})
	if err != nil {
		return nil, err
	}
	var a tokenAnswer
	if err := c.do(ctx, call{method: "POST", path: "/access_token", body: body, auth: !c.backOffice}, &a); err != nil {
		return nil, err
	}
	tok, err := a.token()
	if err != nil {
		return nil, &TransportError{Method: "POST", Path: "/access_token", Err: err}
	}
	got := a.Identity
	if got.ID == "" {
		got = id
	}
	return &AccessToken{Token: tok, Identity: got}, nil
}
