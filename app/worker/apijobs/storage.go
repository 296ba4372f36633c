package apijobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/bulkdesk/bulkdesk/app/submission/kvstore"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// storageTimeout bounds the wait for the page's answer: a page that does
// not answer is closing, and the journal write must fail rather than hang.
const storageTimeout = 10 * time.Second

// pageStorage is the page's localStorage, reached with TypeStorage
// messages: a Web Worker has none of its own. The submission journal
// falls back to it where the browser gives the worker no IndexedDB.
type pageStorage struct {
	post func(wire.Message)

	mu      sync.Mutex
	next    int
	waiting map[int]chan wire.StorageReply
}

func newPageStorage(post func(wire.Message)) *pageStorage {
	return &pageStorage{post: post, waiting: make(map[int]chan wire.StorageReply)}
}

// PageStorage returns the page's localStorage as a store for a journal.
func (s *Server) PageStorage() kvstore.KeyValue { return s.storage }

func (p *pageStorage) Get(ctx context.Context, key string) (string, bool, error) {
	r, err := p.call(ctx, wire.StorageRequest{Op: wire.StorageGet, Key: key})
	return r.Value, r.Found, err
}

func (p *pageStorage) Set(ctx context.Context, key, value string) error {
	_, err := p.call(ctx, wire.StorageRequest{Op: wire.StorageSet, Key: key, Value: value})
	return err
}

// call asks the page and waits for its answer.
func (p *pageStorage) call(ctx context.Context, req wire.StorageRequest) (wire.StorageReply, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return wire.StorageReply{}, err
	}
	answer := make(chan wire.StorageReply, 1)
	p.mu.Lock()
	p.next++
	id := p.next
	p.waiting[id] = answer
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(p.waiting, id)
		p.mu.Unlock()
	}()
	p.post(wire.Message{ID: id, Type: wire.TypeStorage, Body: body})
	t := time.NewTimer(storageTimeout)
	defer t.Stop()
	select {
	case r := <-answer:
		if r.Error != "" {
			return r, fmt.Errorf("the page's localStorage: %s", r.Error)
		}
		return r, nil
	case <-ctx.Done():
		return wire.StorageReply{}, ctx.Err()
	case <-t.C:
		return wire.StorageReply{}, errors.New("the page did not answer for its localStorage")
	}
}

// reply hands the page's answer to the call waiting for it.
func (p *pageStorage) reply(m wire.Message) {
	var r wire.StorageReply
	if err := json.Unmarshal(m.Body, &r); err != nil {
		r.Error = "unreadable answer: " + err.Error()
	}
	p.mu.Lock()
	answer := p.waiting[m.ID]
	p.mu.Unlock()
	if answer != nil {
		select {
		case answer <- r:
		default:
		}
	}
}
