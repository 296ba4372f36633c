package metrics_test

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/metrics"
)

func TestTheMetricsSayWhatHappened(t *testing.T) {
	m := metrics.New(func() int { return 3 })
	m.Event("accepted", "")
	m.Event("refused", "signature")
	m.Event("refused", "signature")
	m.ProxyCall("standard", 201, 40*time.Millisecond)
	m.FourEyesRefusal("same_operator")
	m.AuthFailure("wrong_password")
	m.AuthThrottled("name")
	m.AuthThrottled("name")
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, want := range []string{
		`bulkdesk_webhook_events_total{outcome="accepted",reason=""} 1`,
		`bulkdesk_webhook_events_total{outcome="refused",reason="signature"} 2`,
		`bulkdesk_proxy_call_seconds_count{api="standard",status="201"} 1`,
		`bulkdesk_proxy_call_seconds_bucket{api="standard",status="201",le="0.05"} 1`,
		`bulkdesk_event_streams_open 3`,
		`bulkdesk_four_eyes_refusals_total{reason="same_operator"} 1`,
		`bulkdesk_auth_failures_total{reason="wrong_password"} 1`,
		`bulkdesk_auth_throttled_total{by="name"} 2`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("no %s in\n%s", want, body)
		}
	}
}
