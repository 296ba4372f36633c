package kvstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/journaltest"
	"github.com/bulkdesk/bulkdesk/app/submission/kvstore"
)

// quotaStore is a kvstore.KeyValue that, like localStorage, refuses values over a
// quota.
type quotaStore struct {
	mu    sync.Mutex
	quota int
	data  map[string]string
}

func (s *quotaStore) Get(_ context.Context, key string) (string, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.data[key]
	return v, ok, nil
}

func (s *quotaStore) Set(_ context.Context, key, value string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(value) > s.quota {
		return errors.New("QuotaExceededError")
	}
	s.data[key] = value
	return nil
}

func TestJournalKeepsTheJournalsBehaviourAndGivesUpBodiesFirst(t *testing.T) {
	store := &quotaStore{quota: 4000, data: map[string]string{}}
	journaltest.Run(t, func() submission.Journal { return kvstore.NewJournal(store, "kv") })
	if _, ok := store.data[kvstore.KeyPrefix+"kv"]; !ok {
		t.Errorf("the journal is not under its key: %v", store.data)
	}

	// Over the quota, the kept bodies go and the entries stay.
	ctx := context.Background()
	j := kvstore.NewJournal(store, "quota")
	big := submission.Entry{Ref: "bd-big", Kind: "transfers", State: submission.Planned, Body: json.RawMessage(`["` + strings.Repeat("x", 5000) + `"]`)}
	if err := j.Put(ctx, big); err != nil {
		t.Fatal(err)
	}
	all, err := j.Entries(ctx)
	if err != nil || len(all) != 1 || all[0].Ref != "bd-big" || all[0].Body != nil {
		t.Fatalf("entries %+v, %v", all, err)
	}
	// Then the fingerprints go.
	fps := submission.Entry{Ref: "bd-fps", Kind: "transfers", State: submission.Submitted, Fingerprints: make([]byte, 4000)}
	if err := j.Put(ctx, fps); err != nil {
		t.Fatal(err)
	}
	if all, err := j.Entries(ctx); err != nil || len(all) != 2 || all[1].Fingerprints != nil {
		t.Fatalf("entries %+v, %v", all, err)
	}
	if err := j.Put(ctx, submission.Entry{Ref: "bd-huge", Source: strings.Repeat("y", 5000)}); err == nil {
		t.Error("an entry over the quota was reported stored")
	}
	if !strings.Contains(store.data[kvstore.KeyPrefix+"quota"], "bd-big") {
		t.Error("a failed Put lost the earlier entries")
	}
}
