package webhook

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// DefaultSendTimeout bounds one delivery when a [Sender] sets none.
const DefaultSendTimeout = 10 * time.Second

// Delivery is one event to post to a receiver.
type Delivery struct {
	// Type is the event path, such as "/bulk_process_end/watch"; it is
	// appended to the receiver's base URL.
	Type string
	// Body is the JSON payload, sent and signed byte for byte.
	Body []byte
	// CallRef is sent and signed when not empty.
	CallRef string
	// RequestRef, when not empty, is sent as request-ref: the same value
	// on every retry of one event lets a receiver spot a resend.
	RequestRef string
	// PublishedAt is the publish time; zero means now.
	PublishedAt time.Time
}

// Sender posts signed events to a receiver, as the API does. The sandbox
// and tests use it.
type Sender struct {
	Key Key
	// Client sends the requests; nil means http.DefaultClient.
	Client *http.Client
	// Timeout bounds each delivery, from connecting to reading the answer;
	// zero means DefaultSendTimeout.
	Timeout time.Duration
}

// DeliveryError is a receiver's refusal of an event: any answer that is
// not 2xx.
type DeliveryError struct {
	URL    string
	Status int
	// Body is the start of the receiver's answer, for the reason it gave.
	Body string
}

func (e *DeliveryError) Error() string {
	msg := fmt.Sprintf("posting the event to %s: the receiver answered %d %s", e.URL, e.Status, http.StatusText(e.Status))
	if e.Body != "" {
		msg += ": " + e.Body
	}
	return msg
}

// Send signs d and posts it to baseURL + d.Type, once: retrying is the
// caller's choice. It returns a *DeliveryError when the receiver answers
// with a status other than 2xx, and a wrapped transport error when it does
// not answer within the timeout.
func (s *Sender) Send(ctx context.Context, baseURL string, d Delivery) error {
	if s.Key.IsZero() {
		return fmt.Errorf("sending a webhook event: no key to sign it with")
	}
	at := d.PublishedAt
	if at.IsZero() {
		at = time.Now()
	}
	url := strings.TrimRight(baseURL, "/") + CanonicalPath(d.Type)
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = DefaultSendTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(d.Body))
	if err != nil {
		return fmt.Errorf("posting the event to %s: %w", url, err)
	}
	req.Header = Sign(s.Key, d.CallRef, d.Body, at)
	req.Header.Set("Content-Type", "application/json")
	if d.RequestRef != "" {
		req.Header.Set(HeaderRequestRef, d.RequestRef)
	}
	client := s.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("posting the event to %s: %w", url, err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode/100 != 2 {
		return &DeliveryError{URL: url, Status: resp.StatusCode, Body: strings.TrimSpace(string(answer))}
	}
	return nil
}
