package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/fixture/eventually"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/console"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
	"github.com/bulkdesk/bulkdesk/schema"
)

func TestServeFlagsComeFromTheEnvironmentUnlessGiven(t *testing.T) {
	env := map[string]string{envAddr: "127.0.0.1:9000", envPrefix: "/console/", envFrameAncestors: "https://portal.example.com, https://b.example"}
	getenv := func(k string) string { return env[k] }

	cfg, err := parseServe(nil, getenv, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.addr != "127.0.0.1:9000" || cfg.options.Prefix != "/console/" ||
		strings.Join(cfg.options.FrameAncestors, " ") != "https://portal.example.com https://b.example" {
		t.Errorf("from the environment: %+v", cfg)
	}

	cfg, err = parseServe([]string{"-addr", "127.0.0.1:9001", "-prefix", "/ops/", "-frame-ancestors", "https://c.example"}, getenv, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.addr != "127.0.0.1:9001" || cfg.options.Prefix != "/ops/" || strings.Join(cfg.options.FrameAncestors, " ") != "https://c.example" {
		t.Errorf("flags over the environment: %+v", cfg)
	}

	cfg, err = parseServe(nil, func(string) string { return "" }, io.Discard)
	if err != nil || cfg.addr != "127.0.0.1:8080" || cfg.options.Prefix != "/" || len(cfg.options.FrameAncestors) != 0 {
		t.Errorf("defaults: %+v, %v", cfg, err)
	}
	if _, err := parseServe([]string{"extra"}, getenv, io.Discard); err == nil {
		t.Error("an extra argument was accepted")
	}
}

// miniConsole is a bundle with the files the server requires.
func miniConsole(t testing.TB) fstest.MapFS {
	fsys := fstest.MapFS{}
	m := console.Manifest{Version: "feedfacefeedface"}
	for _, name := range []string{"app.wasm", "worker.wasm", "worker.js", "console.css", "icon.svg", "icon-192.png", "icon-512.png"} {
		m.Files = append(m.Files, console.File{Name: name, Path: name, Size: 1, SHA256: strings.Repeat("ab", 32)})
		fsys[name] = &fstest.MapFile{Data: []byte("x")}
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	fsys[console.ManifestName] = &fstest.MapFile{Data: b}
	return fsys
}

func TestServeListensUntilCanceled(t *testing.T) {
	cfg := serveConfig{addr: "127.0.0.1:0"}
	cfg.options.Prefix = "/console/"
	cfg.options.Assets = miniConsole(t)
	ctx, cancel := context.WithCancel(context.Background())
	urls := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- serveConsole(ctx, cfg, func(u string) { urls <- u }) }()

	var url string
	select {
	case url = <-urls:
	case err := <-done:
		t.Fatalf("serve stopped at once: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not start")
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/console/") {
		t.Errorf("URL %q", url)
	}
	client := &http.Client{Timeout: 5 * time.Second}
	for path, want := range map[string]int{"": http.StatusOK, "healthz": http.StatusOK} {
		res, err := client.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("GET %s%s: %d, want %d", url, path, res.StatusCode, want)
		}
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve returned %v after the cancel", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
	if _, err := client.Get(url); err == nil {
		t.Error("the server still answers after stopping")
	}
}

// TestServeWithSandbox runs serve as "make run" does, under a prefix, and
// takes a bulk from submission to its end through the same-origin proxy:
// the in-process sandbox executes it and its signed bulk_process_end event
// reaches the server's own webhook receiver.
func TestServeWithSandbox(t *testing.T) {
	cfg, err := parseServe([]string{"-addr", "127.0.0.1:0", "-prefix", "/console/", "-sandbox", "-quiet"}, func(string) string { return "" }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base, done := serveMini(t, ctx, cfg)

	client, err := bulkapi.New(bulkapi.Config{BaseURL: base + "api", BackOfficeURL: base + "backoffice", APIKey: sandbox.DefaultAPIKey, Token: sandbox.DefaultToken})
	if err != nil {
		t.Fatal(err)
	}
	reqCtx, stop := context.WithTimeout(ctx, 30*time.Second)
	defer stop()
	kind, _ := schema.Lookup("card_blocks")
	receipt, err := client.Submit(reqCtx, kind, []byte(`[{"pathParams":{"_id_":"1"}},{"pathParams":{"_id_":"2"}}]`), "serve-test-1")
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Execute(reqCtx, receipt.BulkID, bulkapi.ExecuteOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually.True(t, 30*time.Second, "bulk "+receipt.BulkID+" to end", func() bool {
		b, err := client.Get(reqCtx, receipt.BulkID)
		if err != nil {
			t.Fatal(err)
		}
		if b.Status.Final() && b.Status != bulkapi.Completed {
			t.Fatalf("bulk ended %s", b.Status)
		}
		return b.Status.Final()
	})
	httpc := &http.Client{Timeout: 5 * time.Second}
	eventually.NoError(t, 30*time.Second, "the bulk_process_end event of bulk "+receipt.BulkID, func() error {
		res, err := httpc.Get(base + "events?type=/bulk_process_end/watch")
		if err != nil {
			t.Fatal(err)
		}
		var events []map[string]any
		err = json.NewDecoder(res.Body).Decode(&events)
		res.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(events) == 1 && strings.Contains(jsonText(events[0]), receipt.BulkID) {
			return nil
		}
		return fmt.Errorf("the events are %v", events)
	})
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve returned %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
}

// serveMini serves cfg with miniConsole until ctx is done, and returns
// its URL and where serveConsole's error comes.
func serveMini(t testing.TB, ctx context.Context, cfg serveConfig) (string, <-chan error) {
	t.Helper()
	cfg.options.Assets = miniConsole(t)
	urls := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- serveConsole(ctx, cfg, func(u string) { urls <- u }) }()
	select {
	case base := <-urls:
		return base, done
	case err := <-done:
		t.Fatalf("serve stopped at once: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not start")
	}
	return "", nil
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestServeTellsTheConsoleWhatItOffers checks the ui.APIConfig that serve
// hands the page: the proxy, the sandbox and its public credentials, and
// the origins the page may call directly.
func TestServeTellsTheConsoleWhatItOffers(t *testing.T) {
	parse := func(args ...string) serveConfig {
		t.Helper()
		cfg, err := parseServe(args, func(string) string { return "" }, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	if api := consoleAPI(parse()); api.Proxy || api.BackOfficeProxy || api.Sandbox != nil {
		t.Errorf("a plain console: %+v", api)
	}
	api := consoleAPI(parse("-sandbox"))
	if sb := api.Sandbox; !api.Proxy || !api.BackOfficeProxy || sb == nil || !sb.Proxied || sb.Path != "sandbox/multi" ||
		sb.BackOfficePath != "sandbox/multi/backoffice" || sb.APIKey != sandbox.DefaultAPIKey || sb.Token != sandbox.DefaultToken || sb.Identity != "CORPORATE:1001" {
		t.Errorf("with the sandbox: %+v %+v", api, api.Sandbox)
	}
	cfg := parse("-sandbox", "-api-url", "https://api.example/multi", "-connect-src", "https://other.example")
	api = consoleAPI(cfg)
	if !api.Proxy || api.BackOfficeProxy || api.ProxyTarget != "https://api.example/multi" || api.Sandbox == nil || api.Sandbox.Proxied {
		t.Errorf("with a real API and the sandbox beside it: %+v", api)
	}
	if got := strings.Join(api.ConnectSources, " "); got != "https://other.example https://api.example" {
		t.Errorf("the page may call %q directly", got)
	}
}
