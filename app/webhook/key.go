package webhook

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
)

// Key is the API key that signs webhook events.
//
// Its String, GoString, Format and MarshalJSON methods never show the key,
// and the bytes are held in a closure: fmt prints a func as an address, so
// even printing a struct that holds a Key in an unexported field, which
// bypasses those methods, cannot show the secret.
type Key struct {
	secret func() []byte
}

// NewKey returns the key s. An empty s gives the zero Key.
func NewKey(s string) Key {
	if s == "" {
		return Key{}
	}
	b := []byte(s)
	return Key{secret: func() []byte { return b }}
}

// IsZero reports whether k holds no key.
func (k Key) IsZero() bool { return k.secret == nil }

const redacted = "[redacted]"

// String returns "[redacted]", never the key.
func (k Key) String() string { return redacted }

// GoString returns "[redacted]", never the key.
func (k Key) GoString() string { return redacted }

// Format prints "[redacted]" for every verb, never the key.
func (k Key) Format(f fmt.State, _ rune) { fmt.Fprint(f, redacted) }

// MarshalJSON encodes the key as the string "[redacted]".
func (k Key) MarshalJSON() ([]byte, error) { return []byte(`"` + redacted + `"`), nil }

// MarshalText encodes the key as "[redacted]", so that it is hidden in
// every text encoding too.
func (k Key) MarshalText() ([]byte, error) { return []byte(redacted), nil }

// mac returns the raw HMAC-SHA256 of message keyed with k.
func (k Key) mac(message []byte) []byte {
	var secret []byte
	if k.secret != nil {
		secret = k.secret()
	}
	h := hmac.New(sha256.New, secret)
	h.Write(message)
	return h.Sum(nil)
}

// Sum returns the base64 HMAC-SHA256 of message keyed with k: the form both
// signature headers carry.
func (k Key) Sum(message []byte) string {
	return base64.StdEncoding.EncodeToString(k.mac(message))
}

// NewRandomKey returns a fresh random key, for a sandbox and a receiver
// that run in one process and need no key from anyone: give the same Key
// to both.
func NewRandomKey() (Key, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return Key{}, fmt.Errorf("making a random webhook key: %w", err)
	}
	return Key{secret: func() []byte { return b }}, nil
}
