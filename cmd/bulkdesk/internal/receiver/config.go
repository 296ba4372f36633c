package receiver

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/webhook"
)

// Defaults of a Config.
const (
	DefaultMaxBodyBytes = 1 << 20
	DefaultRingSize     = 10_000
	DefaultKeepAlive    = 15 * time.Second
	DefaultRetention    = 30 * 24 * time.Hour
	DefaultSegmentBytes = 64 << 20
	DefaultMaxStreams   = 100
	DefaultSyncTimeout  = 10 * time.Second
)

// Config configures a Receiver. The zero value of each field but Key
// means its default.
type Config struct {
	// Key is the API key events are signed with. Required.
	Key webhook.Key
	// MaxBodyBytes is the largest body accepted; larger ones get 413.
	MaxBodyBytes int64
	// Tolerance is how far published-timestamp may be from the clock,
	// each way; it is also how long an accepted event is remembered to
	// refuse its replay.
	Tolerance time.Duration
	// RingSize is how many accepted events are kept in memory.
	RingSize int
	// Dir, when set, is where accepted events are stored, each on disk
	// before its 204, and reloaded from, so that they and the duplicate
	// guard survive a restart. Without it nothing persists.
	Dir string
	// Shared, when set instead of Dir, keeps the events where the
	// receivers of several servers see them: it numbers and stores each
	// event once, and every receiver streams every event (shared.go).
	Shared Shared
	// Retention is how long stored events are kept: segments of the
	// events file older than this are removed at start and every hour.
	Retention time.Duration
	// SegmentBytes is the size at which DIR/events.jsonl is rotated into
	// a dated segment; it is also rotated on the first event of a new day
	// (UTC), so that retention removes whole days.
	SegmentBytes int64
	// PerEventFsync makes every accepted event wait for an fsync of its
	// own. By default (false) concurrent events share one fsync (group
	// commit); the two are kept so that their throughput can be compared.
	PerEventFsync bool
	// SyncTimeout bounds how long a request waits for the fsync that
	// covers its event before it is answered 503.
	SyncTimeout time.Duration
	// MaxStreams is how many event streams may be open at once; one more
	// is answered 503 with Retry-After.
	MaxStreams int
	// KeepAlive is the interval of the event stream's keep-alive comments.
	KeepAlive time.Duration
	// Logger receives one line per refused event and storage problems;
	// nil means slog.Default().
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// OnEvent, when set, is told of every event received: its outcome
	// (accepted, duplicate or refused) and, when refused, a reason word
	// (unknown-path, malformed, unauthentic, too-large, unavailable): for
	// metrics, never with a key or a body.
	OnEvent func(outcome, reason string)

	// syncHook, set by tests only, runs before each fsync of the events
	// file with the number of events it covers; an error stands for a
	// failed fsync.
	syncHook func(events int) error
	// queuedHook, set by tests only, runs when an event has been queued
	// for the events file.
	queuedHook func()
	// copyWaitsHook, set by tests only, runs when a copy of an event starts
	// waiting for the original to be on disk.
	copyWaitsHook func()
}

// Enabled reports whether the configuration has a key, without which
// "bulkdesk serve" runs no receiver.
func (c *Config) Enabled() bool { return !c.Key.IsZero() }

func (c Config) withDefaults() Config {
	if c.MaxBodyBytes <= 0 {
		c.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if c.Tolerance <= 0 {
		c.Tolerance = webhook.DefaultTolerance
	}
	if c.RingSize <= 0 {
		c.RingSize = DefaultRingSize
	}
	if c.Retention <= 0 {
		c.Retention = DefaultRetention
	}
	if c.SegmentBytes <= 0 {
		c.SegmentBytes = DefaultSegmentBytes
	}
	if c.SyncTimeout <= 0 {
		c.SyncTimeout = DefaultSyncTimeout
	}
	if c.MaxStreams <= 0 {
		c.MaxStreams = DefaultMaxStreams
	}
	if c.KeepAlive <= 0 {
		c.KeepAlive = DefaultKeepAlive
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// envNames maps each flag of RegisterFlags to its environment variable.
var envNames = map[string]string{
	"webhook-key":       "BULKDESK_WEBHOOK_KEY",
	"webhook-max-bytes": "BULKDESK_WEBHOOK_MAX_BYTES",
	"webhook-tolerance": "BULKDESK_WEBHOOK_TOLERANCE",
	"events-ring":       "BULKDESK_EVENTS_RING",
	"events-dir":        "BULKDESK_EVENTS_DIR",
	"events-retention":  "BULKDESK_EVENTS_RETENTION",
	"max-streams":       "BULKDESK_MAX_STREAMS",
}

// RegisterFlags adds the receiver's flags to fs, writing into c. Values
// already in c are the flags' defaults. Call ApplyEnv after fs.Parse to
// fill what the command line left out from the environment.
func (c *Config) RegisterFlags(fs *flag.FlagSet) {
	d := c.withDefaults()
	c.MaxBodyBytes, c.Tolerance, c.RingSize = d.MaxBodyBytes, d.Tolerance, d.RingSize
	c.Retention, c.MaxStreams = d.Retention, d.MaxStreams
	fs.Var((*keyFlag)(&c.Key), "webhook-key", "API key webhook events are signed with; enables the receiver at /webhooks/ (prefer $BULKDESK_WEBHOOK_KEY: a command line is visible to other users)")
	fs.Var((*byteSize)(&c.MaxBodyBytes), "webhook-max-bytes", "largest webhook body accepted, in bytes or with a unit: 512KiB, 1MiB, 2MB (env BULKDESK_WEBHOOK_MAX_BYTES)")
	fs.DurationVar(&c.Tolerance, "webhook-tolerance", c.Tolerance, "how far an event's published-timestamp may be from the clock, each way (env BULKDESK_WEBHOOK_TOLERANCE)")
	fs.IntVar(&c.RingSize, "events-ring", c.RingSize, "accepted webhook events kept in memory (env BULKDESK_EVENTS_RING)")
	fs.StringVar(&c.Dir, "events-dir", c.Dir, "directory where accepted webhook events are stored across restarts (env BULKDESK_EVENTS_DIR)")
	fs.Var((*days)(&c.Retention), "events-retention", "how long stored webhook events are kept, as a duration or in days: 720h, 30d (env BULKDESK_EVENTS_RETENTION)")
	fs.IntVar(&c.MaxStreams, "max-streams", c.MaxStreams, "event streams open at once; more are answered 503 (env BULKDESK_MAX_STREAMS)")
}

// ApplyEnv sets each flag of RegisterFlags that the command line did not
// give from its environment variable, read with getenv (os.Getenv).
func (c *Config) ApplyEnv(fs *flag.FlagSet, getenv func(string) string) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var errs []error
	for name, env := range envNames {
		val := getenv(env)
		if given[name] || val == "" || fs.Lookup(name) == nil {
			continue
		}
		if err := fs.Set(name, val); err != nil {
			if name == "webhook-key" {
				err = errors.New("the key cannot be read") // never repeat the value
			}
			errs = append(errs, fmt.Errorf("environment variable %s: %w", env, err))
		}
	}
	return errors.Join(errs...)
}

// keyFlag is a flag.Value for the key that never shows it: not in -h
// output, not in errors.
type keyFlag webhook.Key

func (k *keyFlag) String() string { return "" }

func (k *keyFlag) Set(s string) error {
	*k = keyFlag(webhook.NewKey(s))
	return nil
}

// days is a flag.Value for a duration that also takes whole days ("30d"),
// the natural unit of a retention.
type days time.Duration

func (d *days) String() string {
	if d == nil {
		return "0s"
	}
	if v := time.Duration(*d); v > 0 && v%(24*time.Hour) == 0 {
		return strconv.FormatInt(int64(v/(24*time.Hour)), 10) + "d"
	}
	return time.Duration(*d).String()
}

func (d *days) Set(s string) error {
	s = strings.TrimSpace(s)
	if n, ok := strings.CutSuffix(s, "d"); ok {
		v, err := strconv.Atoi(n)
		if err != nil || v <= 0 || v > 100*365 {
			return fmt.Errorf("%q is not a number of days: write, say, 30d", s)
		}
		*d = days(time.Duration(v) * 24 * time.Hour)
		return nil
	}
	v, err := time.ParseDuration(s)
	if err != nil || v <= 0 {
		return fmt.Errorf("%q is not a positive duration: write, say, 720h or 30d", s)
	}
	*d = days(v)
	return nil
}

// byteSize is a flag.Value for a size in bytes, with an optional unit.
type byteSize int64

func (b *byteSize) String() string {
	if b == nil {
		return "0"
	}
	return formatBytes(int64(*b))
}

func (b *byteSize) Set(s string) error {
	n, err := parseBytes(s)
	if err != nil {
		return err
	}
	*b = byteSize(n)
	return nil
}

var byteUnits = []struct {
	suffix string
	size   int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
	{"KB", 1000}, {"MB", 1000 * 1000}, {"GB", 1000 * 1000 * 1000},
	{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30},
	{"B", 1},
}

// parseBytes reads "1048576", "512KiB", "1MiB", "2MB" or "1M".
func parseBytes(s string) (int64, error) {
	num, unit := strings.TrimSpace(s), int64(1)
	for _, u := range byteUnits {
		if rest, ok := strings.CutSuffix(num, u.suffix); ok {
			num, unit = strings.TrimSpace(rest), u.size
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/unit {
		return 0, fmt.Errorf("%q is not a size: write a positive number of bytes, or one with a unit such as 512KiB or 1MiB", s)
	}
	return n * unit, nil
}

// formatBytes writes n in the largest binary unit that divides it.
func formatBytes(n int64) string {
	for _, u := range []struct {
		suffix string
		size   int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}
