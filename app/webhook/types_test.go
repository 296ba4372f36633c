package webhook_test

import (
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/webhook"
)

func TestTypes(t *testing.T) {
	types := webhook.Types()
	if len(types) != 32 {
		t.Errorf("%d event types, the reference lists 32", len(types))
	}
	seen := map[string]bool{}
	for _, ty := range types {
		if seen[ty.Path] || !strings.HasPrefix(ty.Path, "/") || !strings.HasSuffix(ty.Path, "/watch") || ty.Title == "" || ty.Group == "" {
			t.Errorf("type %+v", ty)
		}
		seen[ty.Path] = true
	}
	types[0].Path = "/changed"
	if webhook.Types()[0].Path == "/changed" {
		t.Error("Types returns the package's own slice")
	}
	for _, p := range []string{"/bulk_process_end/watch", "bulk_process_end/watch", "/webhooks/bulk_process_end/watch", "webhooks/bulk_process_end/watch", "//bulk_process_end/watch"} {
		if ty, ok := webhook.LookupType(p); !ok || ty.Path != "/bulk_process_end/watch" {
			t.Errorf("LookupType(%q) = %+v, %v", p, ty, ok)
		}
	}
	for _, p := range []string{"", "/", "/bulk_process_end", "/bulk_process_end/watch/", "/BULK_PROCESS_END/watch", "/webhooks"} {
		if _, ok := webhook.LookupType(p); ok {
			t.Errorf("LookupType(%q) found a type", p)
		}
	}
}
