package webhook_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/webhook"
)

// transferEvent is a transfer event of about 600 bytes, the size of most.
const transferEvent = `{"eventType":"COMPLETED","transfer":{"id":{"type":"transfers","id":"118231498219765760"},"profileId":"110931284712031","tag":"payroll-2025-10","source":{"type":"managed_accounts","id":"110931284712032"},"destination":{"type":"managed_cards","id":"110931284712099"},"destinationAmount":{"currency":"EUR","amount":"125000"},"state":"COMPLETED","creationTimestamp":"1761909500000","executionTimestamp":"1761909550000"},"publishedTimestamp":"1761909600000"}`

func BenchmarkVerify(b *testing.B) {
	at := time.UnixMilli(1761909600000)
	key := webhook.NewKey("sandbox-api-key-1")
	v := &webhook.Verifier{Key: key, Now: func() time.Time { return at }}
	for _, size := range []int{len(transferEvent), 64 << 10, 1 << 20} {
		body := []byte(transferEvent)
		if size > len(body) {
			body = bytes.Repeat([]byte(" "), size)
			copy(body, transferEvent)
		}
		h := webhook.Sign(key, "ref-1", body, at)
		b.Run(fmt.Sprintf("body=%dB", size), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				if !v.Verify(h, body).OK() {
					b.Fatal("rejected")
				}
			}
		})
	}
}

func BenchmarkSummarize(b *testing.B) {
	at := time.UnixMilli(1761909600000)
	for b.Loop() {
		if webhook.Summarize("/transfers/watch", []byte(transferEvent), at).TransactionID == "" {
			b.Fatal("no transaction id")
		}
	}
}
