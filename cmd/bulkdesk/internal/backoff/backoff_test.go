package backoff

import (
	"context"
	"testing"
	"time"
)

// TestThePauseGrowsToItsMaximumAndResets reads the pause each Wait takes,
// with a context that has ended, so that nothing waits.
func TestThePauseGrowsToItsMaximumAndResets(t *testing.T) {
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	var p Pause
	var got []time.Duration
	for range 8 {
		if p.Wait(ended) {
			t.Fatal("Wait went on after its context ended")
		}
		got = append(got, p.next)
	}
	want := []time.Duration{200 * time.Millisecond, 400 * time.Millisecond, 800 * time.Millisecond, 1600 * time.Millisecond, 3200 * time.Millisecond, Max, Max, Max}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("the next pauses %v, want %v", got, want)
		}
	}
	p.Reset()
	if p.next != First {
		t.Errorf("after Reset the next pause is %v", p.next)
	}
	if !(&Pause{}).Wait(context.Background()) {
		t.Error("the first pause did not end")
	}
}
