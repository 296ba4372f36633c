package sandbox

import (
	"context"
	"encoding/json"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
)

// tick is how often a running bulk catches up with its rate.
const tick = 10 * time.Millisecond

// start sets b RUNNING and executes its operations in the background.
// The caller holds s.mu.
func (s *Sandbox) start(b *bulk) {
	b.status = bulkapi.Running
	halt := make(chan struct{})
	b.halt = halt
	s.workers.Add(1)
	go s.run(b, halt)
}

// stopRunner stops the goroutine executing b, if one runs. The caller
// holds s.mu.
func (b *bulk) stopRunner() {
	if b.halt != nil {
		close(b.halt)
		b.halt = nil
	}
}

// run executes b's operations at the configured rate until they are all
// done, the bulk is paused or cancelled, or the sandbox closes.
func (s *Sandbox) run(b *bulk, halt chan struct{}) {
	defer s.workers.Done()
	t := time.NewTicker(tick)
	defer t.Stop()
	began := time.Now()
	s.mu.Lock()
	from := b.next
	s.mu.Unlock()
	for {
		select {
		case <-halt:
			return
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		due := from + int(s.cfg.OpsPerSecond*time.Since(began).Seconds())
		s.mu.Lock()
		if b.halt != halt { // paused or cancelled while this goroutine waited
			s.mu.Unlock()
			return
		}
		ev, ended := s.advance(b, due)
		s.mu.Unlock()
		if ended {
			s.deliver(ev)
			return
		}
	}
}

// advance executes operations up to index due and reports whether the
// bulk ended, with its bulk_process_end event. The caller holds s.mu.
func (s *Sandbox) advance(b *bulk, due int) (Event, bool) {
	for b.next < len(b.ops) && b.next < due {
		op := &b.ops[b.next]
		b.next++
		if !op.fails {
			op.status = bulkapi.OpCompleted
			op.response = `{"id":"` + op.id + `"}`
			continue
		}
		op.status = bulkapi.OpFailed
		op.response = failure(op)
		if b.mode == bulkapi.OnFailureStop {
			for i := b.next; i < len(b.ops); i++ {
				b.ops[i].status = bulkapi.OpCancelled
			}
			b.next = len(b.ops)
		}
	}
	if b.next < len(b.ops) {
		return Event{}, false
	}
	completed := 0
	for _, op := range b.ops {
		if op.status == bulkapi.OpCompleted {
			completed++
		}
	}
	switch {
	case completed == len(b.ops):
		b.status = bulkapi.Completed
	case completed == 0:
		b.status = bulkapi.Failed
	default:
		b.status = bulkapi.PartiallyCompleted
	}
	b.finished = s.cfg.Now().UnixMilli()
	b.halt = nil
	return Event{BulkID: b.id, Status: b.status, SubmittedItemsCount: len(b.ops), OperationStatusCounts: b.counts()}, true
}

func failure(op *operation) string {
	data, _ := json.Marshal(map[string]string{
		"errorCode": "SANDBOX_DECLINED",
		"message":   "the sandbox declined this operation (" + op.method + " " + op.path + ")",
	})
	return string(data)
}

// Delivery attempts of a webhook event, and the pause after each failure.
var deliveryBackoff = []time.Duration{0, time.Second, 4 * time.Second}

// deliver sends an event in the background, retrying a few times.
func (s *Sandbox) deliver(ev Event) {
	if s.cfg.SendEvent == nil {
		return
	}
	s.workers.Add(1)
	go func() {
		defer s.workers.Done()
		var err error
		for _, wait := range deliveryBackoff {
			select {
			case <-time.After(wait):
			case <-s.ctx.Done():
				return
			}
			ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
			err = s.cfg.SendEvent(ctx, ev)
			cancel()
			if err == nil {
				return
			}
		}
		if s.cfg.Logger != nil {
			s.cfg.Logger.Warn("sandbox: webhook not delivered", "bulkId", ev.BulkID, "error", err)
		}
	}()
}
