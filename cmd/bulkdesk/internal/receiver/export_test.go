package receiver

// Streams returns how many event streams are open.
func (r *Receiver) Streams() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.subs)
}
