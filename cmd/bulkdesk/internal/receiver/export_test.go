package receiver

// SetSyncHook makes hook run before each fsync of the events file, with
// the number of events it covers; an error it returns stands for a
// failed fsync.
func SetSyncHook(c *Config, hook func(events int) error) { c.syncHook = hook }

// SetQueuedHook makes hook run each time an event is queued for the
// events file.
func SetQueuedHook(c *Config, hook func()) { c.queuedHook = hook }

// SetCopyWaitsHook makes hook run each time a copy of an event starts
// waiting for the original to be on disk.
func SetCopyWaitsHook(c *Config, hook func()) { c.copyWaitsHook = hook }
