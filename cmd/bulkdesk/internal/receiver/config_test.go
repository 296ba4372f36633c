package receiver_test

import (
	"bytes"
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/receiver"
)

func parseFlags(t *testing.T, args []string, env map[string]string) (*receiver.Config, *flag.FlagSet, error) {
	t.Helper()
	var cfg receiver.Config
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	var help bytes.Buffer
	fs.SetOutput(&help)
	cfg.RegisterFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	err := cfg.ApplyEnv(fs, func(name string) string { return env[name] })
	return &cfg, fs, err
}

func TestFlagsAndEnvironment(t *testing.T) {
	cfg, _, err := parseFlags(t, nil, nil)
	if err != nil || cfg.Enabled() || cfg.MaxBodyBytes != 1<<20 || cfg.RingSize != 10000 || cfg.Tolerance != 5*time.Minute || cfg.Dir != "" {
		t.Errorf("defaults %+v, %v", cfg, err)
	}

	env := map[string]string{
		"BULKDESK_WEBHOOK_KEY":       testKey,
		"BULKDESK_WEBHOOK_MAX_BYTES": "512KiB",
		"BULKDESK_WEBHOOK_TOLERANCE": "2m",
		"BULKDESK_EVENTS_RING":       "50",
		"BULKDESK_EVENTS_DIR":        "/var/lib/bulkdesk/events",
	}
	cfg, _, err = parseFlags(t, nil, env)
	if err != nil || !cfg.Enabled() || cfg.MaxBodyBytes != 512<<10 || cfg.RingSize != 50 || cfg.Tolerance != 2*time.Minute || cfg.Dir != "/var/lib/bulkdesk/events" {
		t.Errorf("from the environment %+v, %v", cfg, err)
	}

	// The command line wins over the environment.
	cfg, _, err = parseFlags(t, []string{"-webhook-max-bytes", "2MB", "-events-ring", "7", "-webhook-key", "from-flag"}, env)
	if err != nil || cfg.MaxBodyBytes != 2_000_000 || cfg.RingSize != 7 || cfg.Dir != "/var/lib/bulkdesk/events" {
		t.Errorf("flags over environment %+v, %v", cfg, err)
	}

	if cfg.Retention != 30*24*time.Hour || cfg.MaxStreams != 100 {
		t.Errorf("default retention %v, max streams %d", cfg.Retention, cfg.MaxStreams)
	}
	cfg, _, err = parseFlags(t, []string{"-events-retention", "36h"}, map[string]string{"BULKDESK_EVENTS_RETENTION": "7d", "BULKDESK_MAX_STREAMS": "3"})
	if err != nil || cfg.Retention != 36*time.Hour || cfg.MaxStreams != 3 {
		t.Errorf("retention %v, max streams %d, %v", cfg.Retention, cfg.MaxStreams, err)
	}
	cfg, _, err = parseFlags(t, nil, map[string]string{"BULKDESK_EVENTS_RETENTION": "7d"})
	if err != nil || cfg.Retention != 7*24*time.Hour {
		t.Errorf("retention in days %v, %v", cfg.Retention, err)
	}

	_, _, err = parseFlags(t, nil, map[string]string{"BULKDESK_WEBHOOK_MAX_BYTES": "lots", "BULKDESK_EVENTS_RING": "x", "BULKDESK_EVENTS_RETENTION": "-1d"})
	if err == nil || !strings.Contains(err.Error(), "BULKDESK_WEBHOOK_MAX_BYTES") || !strings.Contains(err.Error(), "BULKDESK_EVENTS_RING") || !strings.Contains(err.Error(), "BULKDESK_EVENTS_RETENTION") {
		t.Errorf("bad environment values: %v", err)
	}
}

func TestKeyNeverShowsInFlags(t *testing.T) {
	cfg, fs, err := parseFlags(t, []string{"-webhook-key", testKey}, nil)
	if err != nil || !cfg.Enabled() {
		t.Fatal(err)
	}
	var help bytes.Buffer
	fs.SetOutput(&help)
	fs.PrintDefaults()
	fs.VisitAll(func(f *flag.Flag) { help.WriteString(f.Value.String() + "\n" + f.DefValue + "\n") })
	if strings.Contains(help.String(), testKey) {
		t.Errorf("the key shows in the flags:\n%s", help.String())
	}
	for _, verb := range []string{"%v", "%+v", "%#v"} {
		if out := fmt.Sprintf(verb, cfg); strings.Contains(out, testKey) {
			t.Errorf("the key shows in a printed Config: %s", out)
		}
	}
	if !strings.Contains(help.String(), "BULKDESK_WEBHOOK_KEY") {
		t.Errorf("the help does not name the key's environment variable:\n%s", help.String())
	}
}

func TestByteSizes(t *testing.T) {
	for in, want := range map[string]int64{"1048576": 1 << 20, "1MiB": 1 << 20, "1M": 1 << 20, "512KiB": 512 << 10, "2MB": 2e6, "10 KB": 1e4, "3B": 3} {
		_, fs, _ := parseFlags(t, nil, nil)
		if err := fs.Set("webhook-max-bytes", in); err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if got := fs.Lookup("webhook-max-bytes").Value.String(); got == "" {
			t.Errorf("%q prints as nothing", in)
		}
		var cfg receiver.Config
		fs2 := flag.NewFlagSet("x", flag.ContinueOnError)
		cfg.RegisterFlags(fs2)
		fs2.Set("webhook-max-bytes", in)
		if cfg.MaxBodyBytes != want {
			t.Errorf("%q = %d, want %d", in, cfg.MaxBodyBytes, want)
		}
	}
	for _, in := range []string{"", "0", "-1", "1.5MiB", "MiB", "1TB", "99999999999GiB"} {
		_, fs, _ := parseFlags(t, nil, nil)
		if err := fs.Set("webhook-max-bytes", in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}
