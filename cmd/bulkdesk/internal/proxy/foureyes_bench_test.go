//go:build !js

package proxy_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/auth"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/proxy"
	"github.com/bulkdesk/bulkdesk/schema"
)

// BenchmarkFourEyesReceiptOf10000Transfers is what the server's receipt
// costs a submission of 10,000 transfers (about 2.6 MB): computing it
// alone, and the whole call through the proxy to an API that reads the
// body and answers at once, with the rule on (receipt computed and
// written to the file) and off.
func BenchmarkFourEyesReceiptOf10000Transfers(b *testing.B) {
	k, _ := schema.Lookup("transfers")
	_, body := cliReceipt(b, fixture.Salary("big.json").Body(schema.MaxElements))
	b.Run("receipt", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			if _, err := bulkreview.ReceiptOfBody(k, false, body, "1", bulkreview.Declared{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	var made atomic.Int64
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"bulkId":"%d"}`, made.Add(1))
	}))
	defer upstream.Close()
	for _, on := range []bool{true, false} {
		b.Run(fmt.Sprintf("through the proxy, rule on %v", on), func(b *testing.B) {
			cfg := proxy.Config{APIURL: upstream.URL + "/multi"}
			if on {
				store, err := approvals.Open(b.TempDir(), time.Second)
				if err != nil {
					b.Fatal(err)
				}
				defer store.Close()
				cfg.FourEyes = &approvals.Rule{Records: store}
				defer cfg.FourEyes.Close()
			}
			p, err := proxy.New(cfg)
			if err != nil {
				b.Fatal(err)
			}
			h := auth.Header(auth.DefaultHeader, []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}, p)
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				req := httptest.NewRequest("POST", "/api/bulks/transfers", bytes.NewReader(body))
				req.RemoteAddr = "127.0.0.1:1234"
				req.Header.Set(auth.DefaultHeader, "alice")
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusCreated {
					b.Fatalf("%d %s", rec.Code, rec.Body)
				}
			}
		})
	}
}
