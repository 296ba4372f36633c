package webhook_test

import (
	"fmt"
	"time"

	"github.com/bulkdesk/bulkdesk/app/webhook"
)

// The sandbox signs an event as the API does; a receiver verifies it.
func ExampleSign() {
	key := webhook.NewKey("sandbox-api-key-1")
	body := []byte(`{"bulkId":"118231498219765760","status":"COMPLETED"}`)
	at := time.UnixMilli(1761909600000)

	h := webhook.Sign(key, "ref-0001", body, at)
	fmt.Println(h.Get("published-timestamp"))
	fmt.Println(h.Get("signature-v2"))

	v := &webhook.Verifier{Key: key, Now: func() time.Time { return at.Add(2 * time.Second) }}
	fmt.Println(v.Verify(h, body).OK())
	// Output:
	// 1761909600000
	// S1Y99fB8jIwcsyxnWNNb21TGilavemd6ZO3gBnEMSC0=
	// true
}

// The verifier page: headers pasted as text, the body as received, and
// the key the integrator typed. On a mismatch the result says what was
// expected to be signed.
func ExampleVerifier_Verify() {
	headers, err := webhook.ParseHeaders([]byte(`POST /webhooks/bulk_process_end/watch HTTP/1.1
call-ref: ref-0001
published-timestamp: 1761909600000
signature-v2: S1Y99fB8jIwcsyxnWNNb21TGilavemd6ZO3gBnEMSC0=
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	// The body lost a character on the way.
	body := []byte(`{"bulkId":"118231498219765760","status":"COMPLETE"}`)
	v := &webhook.Verifier{Key: webhook.NewKey("sandbox-api-key-1"), SkipClock: true}
	r := v.Verify(headers, body)
	for _, vd := range r.Verdicts() {
		fmt.Printf("%s: %s\n", vd.Header, vd.Status)
	}
	fmt.Printf("signed %d bytes: %q\n", len(r.Signed.Message), r.Signed.Message)
	fmt.Println("body", r.Signed.BodyLength, "bytes, SHA-256", r.Signed.BodySHA256[:16]+"…")
	// Output:
	// signature-v2: mismatch
	// signature: absent
	// call-ref: valid
	// published-timestamp: unchecked
	// signed 72 bytes: "ref-0001{\"bulkId\":\"118231498219765760\",\"status\":\"COMPLETE\"}1761909600000"
	// body 51 bytes, SHA-256 e6df5346729ae546…
}

// The events page shows each event's summary.
func ExampleSummarize() {
	body := []byte(`{"bulkId":"118231498219765760","status":"PARTIALLY_COMPLETED","submittedItemsCount":10000,
		"operationStatusCounts":[{"status":"COMPLETED","count":9990},{"status":"FAILED","count":10}]}`)
	s := webhook.Summarize("/bulk_process_end/watch", body, time.UnixMilli(1761909600000).UTC())
	fmt.Println(s.Title, s.Time.Format(time.RFC3339), s.BulkID, s.Status)
	for _, f := range s.Fields {
		fmt.Printf("%s: %s\n", f.Label, f.Value)
	}
	// Output:
	// Bulk process ended 2025-10-31T11:20:00Z 118231498219765760 PARTIALLY_COMPLETED
	// bulk: 118231498219765760
	// status: Partially completed
	// submitted: 10,000
	// operations: 9,990 completed, 10 failed
}
