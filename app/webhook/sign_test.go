package webhook_test

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/webhook"
)

func TestSignaturesMatchOpenSSLVectors(t *testing.T) {
	for _, v := range loadVectors(t) {
		t.Run(v.name, func(t *testing.T) {
			key := webhook.NewKey(v.key)
			if got := webhook.Message(v.callRef, v.body, v.timestamp); !bytes.Equal(got, v.message) {
				t.Errorf("Message = %q, want %q", got, v.message)
			}
			if got := webhook.SignatureV2(key, v.callRef, v.body, v.timestamp); got != v.signatureV2 {
				t.Errorf("SignatureV2 = %s, want %s", got, v.signatureV2)
			}
			if got := webhook.Signature(key, v.timestamp); got != v.signature {
				t.Errorf("Signature = %s, want %s", got, v.signature)
			}
		})
	}
}

func TestSignGivesTheVectorHeaders(t *testing.T) {
	for _, v := range loadVectors(t) {
		t.Run(v.name, func(t *testing.T) {
			h := webhook.Sign(webhook.NewKey(v.key), v.callRef, v.body, v.publishedAt(t))
			want, err := webhook.ParseHeaders(v.headers)
			if err != nil {
				t.Fatal(err)
			}
			if v.callRef == "" {
				// Sign leaves out an empty call-ref; it signs the same.
				want.Del(webhook.HeaderCallRef)
			}
			if len(h) != len(want) {
				t.Errorf("Sign gave %d headers %v, want %d %v", len(h), h, len(want), want)
			}
			for name := range want {
				if h.Get(name) != want.Get(name) {
					t.Errorf("%s: %q, want %q", name, h.Get(name), want.Get(name))
				}
			}
		})
	}
}

func TestSignOmitsEmptyCallRef(t *testing.T) {
	h := webhook.Sign(webhook.NewKey("k"), "", []byte("{}"), mustTime(t, "1761909600000"))
	if _, ok := h[http.CanonicalHeaderKey(webhook.HeaderCallRef)]; ok {
		t.Errorf("call-ref sent empty: %v", h)
	}
}
