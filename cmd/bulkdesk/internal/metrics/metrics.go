// Package metrics is what "bulkdesk serve" tells a monitoring system at
// GET /metrics, in the Prometheus text format: the webhook events it
// accepted and refused, by reason; the calls it proxied to the API, by
// status, with their latency; the executions the four-eyes rule refused,
// by reason; and the event streams open. It is the only
// package that knows the Prometheus client: the receiver and the proxy
// report through plain functions, so that they stay free of it.
package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics holds one server's metrics, in a registry of its own.
type Metrics struct {
	reg    *prometheus.Registry
	events *prometheus.CounterVec
	calls  *prometheus.HistogramVec
	// refusals counts the executions the four-eyes rule refused.
	refusals *prometheus.CounterVec
	// authFailures counts the sign-ins refused, authThrottled the
	// attempts answered 429 because a name or address failed too often.
	authFailures, authThrottled *prometheus.CounterVec
}

// New returns the metrics of one server; streams, when not nil, counts
// the event streams open.
func New(streams func() int) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		events: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "bulkdesk_webhook_events_total",
			Help: "Webhook events received, by outcome (accepted, duplicate, refused) and the reason of a refusal.",
		}, []string{"outcome", "reason"}),
		calls: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "bulkdesk_proxy_call_seconds",
			Help:    "Calls proxied to the API, by API (standard, backoffice) and HTTP status, and how long they took.",
			Buckets: []float64{0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120},
		}, []string{"api", "status"}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "bulkdesk_four_eyes_refusals_total",
			Help: "Bulk executions the four-eyes rule refused, by reason (same_operator, unknown_bulk, submission_in_flight, no_user, record_unreadable).",
		}, []string{"reason"}),
		authFailures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "bulkdesk_auth_failures_total",
			Help: "Sign-ins refused, by reason (unknown_user, wrong_password, bad_name, bad_user_header).",
		}, []string{"reason"}),
		authThrottled: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "bulkdesk_auth_throttled_total",
			Help: "Sign-in attempts answered 429 unchecked, by what had failed too often (name, address).",
		}, []string{"by"}),
	}
	m.reg.MustRegister(m.events, m.calls, m.refusals, m.authFailures, m.authThrottled, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if streams != nil {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "bulkdesk_event_streams_open",
			Help: "Event streams (GET /events/stream) open now.",
		}, func() float64 { return float64(streams()) }))
	}
	return m
}

// Event counts one webhook event: outcome is accepted, duplicate or
// refused, reason why it was refused ("" otherwise).
func (m *Metrics) Event(outcome, reason string) {
	m.events.WithLabelValues(outcome, reason).Inc()
}

// ProxyCall counts one call proxied to api, answered with status after d.
func (m *Metrics) ProxyCall(api string, status int, d time.Duration) {
	m.calls.WithLabelValues(api, strconv.Itoa(status)).Observe(d.Seconds())
}

// FourEyesRefusal counts one execution the four-eyes rule refused.
func (m *Metrics) FourEyesRefusal(reason string) {
	m.refusals.WithLabelValues(reason).Inc()
}

// AuthFailure counts one sign-in refused for reason.
func (m *Metrics) AuthFailure(reason string) {
	m.authFailures.WithLabelValues(reason).Inc()
}

// AuthThrottled counts one sign-in attempt answered 429 because its name
// or its address ("name", "address") had failed too often.
func (m *Metrics) AuthThrottled(by string) {
	m.authThrottled.WithLabelValues(by).Inc()
}

// Handler serves the metrics; mount it behind the console's
// authentication.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}
