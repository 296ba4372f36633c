package bulkreview_test

import (
	"context"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
)

// BenchmarkReview10k reviews a bulk of 10,000 transfers served in-process
// by the fake API: every operation read (100 a page), rebuilt, validated
// and summed, and the body hashed. The API's own latency is not in it.
func BenchmarkReview10k(b *testing.B) {
	api := fakeapi.New()
	s := submit(b, api, api, fixture.SampleBody(10000), 0)
	id := s.entries[0].BulkID
	v := fixture.Validator()
	b.ResetTimer()
	for range b.N {
		r, err := bulkreview.Fetch(context.Background(), s.client, id, bulkreview.Options{Validator: v})
		if err != nil {
			b.Fatal(err)
		}
		if len(r.Elements) != 10000 {
			b.Fatalf("%d elements", len(r.Elements))
		}
	}
}
