package webhook_test

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/webhook"
)

func TestKeyNeverPrints(t *testing.T) {
	const secret = "s3cret-api-key"
	k := webhook.NewKey(secret)
	type exported struct{ Key webhook.Key }
	type unexported struct{ key webhook.Key }
	type viaPointer struct{ key *webhook.Key }
	var outs []string
	for _, v := range []any{k, &k, exported{k}, unexported{k}, viaPointer{&k}, []webhook.Key{k}, map[string]webhook.Key{"k": k}} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d"} {
			outs = append(outs, fmt.Sprintf(verb, v))
		}
		j, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, string(j))
	}
	x, _ := xml.Marshal(exported{k})
	outs = append(outs, string(x))
	for _, out := range outs {
		if strings.Contains(out, secret) || strings.Contains(strings.ToLower(out), fmt.Sprintf("%x", secret)) || strings.Contains(out, "115 51 99") {
			t.Errorf("the key shows in %q", out)
		}
	}
	if k.IsZero() || !webhook.NewKey("").IsZero() || !(webhook.Key{}).IsZero() {
		t.Error("IsZero")
	}
	// The key still signs.
	if webhook.Signature(k, "1") == webhook.Signature(webhook.NewKey("other"), "1") {
		t.Error("different keys give the same signature")
	}
}

func TestNewRandomKey(t *testing.T) {
	a, err := webhook.NewRandomKey()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := webhook.NewRandomKey()
	if a.IsZero() || webhook.Signature(a, "1") == webhook.Signature(b, "1") {
		t.Error("two random keys sign alike")
	}
	if webhook.Signature(a, "1") != webhook.Signature(a, "1") {
		t.Error("a random key does not sign the same twice")
	}
}
