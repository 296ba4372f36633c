package webhook_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/webhook"
)

// vector is one set of inputs and openssl-computed outputs from
// testdata/vectors (written by testdata/make-vectors.sh).
type vector struct {
	name        string
	key         string
	timestamp   string
	callRef     string
	hasCallRef  bool
	body        []byte
	message     []byte
	signature   string
	signatureV2 string
	bodySHA256  string
	headers     []byte
}

func loadVectors(t testing.TB) []vector {
	t.Helper()
	dirs, err := os.ReadDir(filepath.Join("testdata", "vectors"))
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	for _, d := range dirs {
		dir := filepath.Join("testdata", "vectors", d.Name())
		read := func(name string) []byte {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		v := vector{
			name:        d.Name(),
			key:         string(read("key")),
			timestamp:   string(read("published-timestamp")),
			body:        read("body"),
			message:     read("message"),
			signature:   string(read("signature")),
			signatureV2: string(read("signature-v2")),
			bodySHA256:  string(read("body.sha256")),
			headers:     read("headers"),
		}
		if ref, err := os.ReadFile(filepath.Join(dir, "call-ref")); err == nil {
			v.callRef, v.hasCallRef = string(ref), true
		}
		vs = append(vs, v)
	}
	if len(vs) < 7 {
		t.Fatalf("found %d vectors in testdata/vectors, want at least 7", len(vs))
	}
	return vs
}

func (v vector) publishedAt(t testing.TB) time.Time {
	t.Helper()
	at, err := webhook.ParseTimestamp(v.timestamp)
	if err != nil {
		t.Fatal(err)
	}
	return at
}

// verifierAt returns a verifier whose clock reads at.
func verifierAt(key string, at time.Time) *webhook.Verifier {
	return &webhook.Verifier{Key: webhook.NewKey(key), Now: func() time.Time { return at }}
}
