package main

import (
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
)

func TestReviewNamesInvalidElements(t *testing.T) {
	api := fakeapi.New()
	url := fakeAPIServer(t, api)
	id := api.Add(bulkapi.Submitted, time.Time{},
		`{"profileId":"110321","source":{"type":"managed_accounts","id":"1000000"},"destination":{"type":"managed_cards","id":"2000000"},"destinationAmount":{"currency":"EUR","amount":100}}`,
		`{"profileId":"110321","source":{"type":"managed_accounts","id":"1000001"},"destination":{"type":"managed_cards","id":"2000001"},"destinationAmount":{"currency":"eur","amount":5}}`)
	code, out, errOut := runCLI(t, "bulks", "review", "-api-url", url, "-timeout", "10s", id)
	if code != exitInvalid || !strings.Contains(out, "invalid: 1 of 2 elements") || !strings.Contains(out, "  sequence 1: ") || !strings.Contains(out, `total: invalid currency eur: 5 in minor units in 1 amount`) {
		t.Errorf("review: %d\n%s\n%s", code, out, errOut)
	}
}
