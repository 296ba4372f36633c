package sandbox

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
)

// Event is the bulk_process_end webhook's payload.
type Event struct {
	BulkID                string                `json:"bulkId"`
	Status                bulkapi.Status        `json:"status"`
	SubmittedItemsCount   int                   `json:"submittedItemsCount"`
	OperationStatusCounts []bulkapi.StatusCount `json:"operationStatusCounts"`
}

// An EventSender delivers an event to the webhook receiver.
type EventSender func(ctx context.Context, ev Event) error

// Webhook header names of the webhook reference.
const (
	HeaderPublishedTimestamp = "published-timestamp"
	HeaderSignature          = "signature"
	HeaderSignatureV2        = "signature-v2"
	HeaderCallRef            = "call-ref"
)

// Signatures returns the two signatures of a webhook call, as the webhook
// reference defines them: the deprecated "signature" is the base64
// HMAC-SHA256 of the published timestamp; "signature-v2" that of call-ref,
// payload and timestamp concatenated; both keyed with the webhook key.
func Signatures(key, callRef string, payload []byte, published string) (signature, signatureV2 string) {
	mac := hmac.New(sha256.New, []byte(key))
	mac.Write([]byte(published))
	signature = base64.StdEncoding.EncodeToString(mac.Sum(nil))
	mac = hmac.New(sha256.New, []byte(key))
	mac.Write([]byte(callRef))
	mac.Write(payload)
	mac.Write([]byte(published))
	signatureV2 = base64.StdEncoding.EncodeToString(mac.Sum(nil))
	return signature, signatureV2
}

// SignedPoster posts events as JSON to a receiver URL, signed with a key.
// The bulk_process_end event carries no call-ref, so signature-v2 covers
// the payload and the timestamp.
type SignedPoster struct {
	URL    string
	Key    string
	Client *http.Client // nil: a client with a 10-second timeout
	Now    func() time.Time
	seq    atomic.Int64
}

// Send posts one event; any answer but 2xx is an error.
func (p *SignedPoster) Send(ctx context.Context, ev Event) error {
	payload, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	now := time.Now
	if p.Now != nil {
		now = p.Now
	}
	published := strconv.FormatInt(now().UnixMilli(), 10)
	sig, sigV2 := Signatures(p.Key, "", payload, published)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.URL, bytes.NewReader(payload))
	if err != nil {
		return fmt.Errorf("webhook to %s: %w", p.URL, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(HeaderPublishedTimestamp, published)
	req.Header.Set(HeaderSignature, sig)
	req.Header.Set(HeaderSignatureV2, sigV2)
	req.Header.Set(bulkapi.HeaderRequestRef, fmt.Sprintf("sbx-event-%s-%d", ev.BulkID, p.seq.Add(1)))
	hc := p.Client
	if hc == nil {
		hc = &http.Client{Timeout: 10 * time.Second}
	}
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("webhook to %s: %w", p.URL, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("webhook to %s: the receiver answered %s", p.URL, resp.Status)
	}
	return nil
}
