package jobs_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// serverAddingKey stands for the console's proxy with the server's
// api-key: it counts the calls that came with an api-key of the
// browser's, adds its own, and answers POST /access_token itself.
type serverAddingKey struct {
	api         http.Handler
	browserKeys chan string
}

func (s serverAddingKey) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if k := r.Header.Get("api-key"); k != "" {
		s.browserKeys <- k
	}
	r.Header.Set("api-key", fakeapi.Key)
	if strings.HasSuffix(r.URL.Path, "/access_token") {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"token":"issued-token","identity":{"type":"CORPORATE","id":"1001"}}`)
		return
	}
	s.api.ServeHTTP(w, r)
}

// A connection through a server that supplies the api-key is not refused
// for want of one: the worker calls the API, and sends no key of its own.
func TestTheWorkerCallsThroughAServerThatSuppliesTheKey(t *testing.T) {
	proxy := serverAddingKey{api: fakeapi.New(), browserKeys: make(chan string, 10)}
	h := newHarness(t, withAPI(proxy))
	through := wire.Connection{APIURL: "http://console.test/api", BackOfficeURL: "http://console.test/backoffice", Token: fakeapi.Token, Proxy: true, ServerKey: true}

	var list wire.BulkList
	h.result(h.send(wire.JobBulks, wire.ListBulks{Connection: through, Limit: 1}, nil), &list)
	if list.Failure != nil {
		t.Errorf("listing bulks through the server: %+v", list.Failure)
	}
	backOffice := through
	backOffice.BackOffice = true
	var tok wire.AccessToken
	h.result(h.send(wire.JobAccessToken, wire.AccessTokenRequest{Connection: backOffice, Identity: "CORPORATE:1001"}, nil), &tok)
	if tok.Failure != nil || tok.Token != "issued-token" {
		t.Errorf("a back-office token through the server: %+v, failure %+v", tok, tok.Failure)
	}
	select {
	case k := <-proxy.browserKeys:
		t.Errorf("the worker sent an api-key of its own: %q", k)
	default:
	}

	// Without the server's key, the missing api-key is said before any call.
	through.ServerKey, backOffice.ServerKey = false, false
	h.result(h.send(wire.JobBulks, wire.ListBulks{Connection: through, Limit: 1}, nil), &list)
	if f := list.Failure; f == nil || f.Class != wire.ClassCredentials || !strings.Contains(f.Summary, "api-key") {
		t.Errorf("no api-key and none from the server: %+v", f)
	}
	h.result(h.send(wire.JobAccessToken, wire.AccessTokenRequest{Connection: backOffice, Identity: "CORPORATE:1001"}, nil), &tok)
	if f := tok.Failure; f == nil || f.Class != wire.ClassCredentials {
		t.Errorf("a back-office token without api-key: %+v", f)
	}
}
