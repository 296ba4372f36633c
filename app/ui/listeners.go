package ui

import "sync"

// listeners are the functions that hear of something a page load shares
// (the server answering, the approval queue read again) while their
// components are mounted.
type listeners[T any] struct {
	mu   sync.Mutex
	next int
	fs   map[int]func(T)
}

// add keeps f until the returned function is called.
func (l *listeners[T]) add(f func(T)) (remove func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fs == nil {
		l.fs = make(map[int]func(T))
	}
	l.next++
	id := l.next
	l.fs[id] = f
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		delete(l.fs, id)
	}
}

// tell calls every listener with v, outside the lock: a listener may add
// or remove one.
func (l *listeners[T]) tell(v T) {
	l.mu.Lock()
	fs := make([]func(T), 0, len(l.fs))
	for _, f := range l.fs {
		fs = append(fs, f)
	}
	l.mu.Unlock()
	for _, f := range fs {
		f(v)
	}
}
