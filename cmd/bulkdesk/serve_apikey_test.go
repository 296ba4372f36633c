//go:build !js

package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/submission/recordhttp"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
	"github.com/bulkdesk/bulkdesk/schema"
)

// serverKey is the api-key the tests give serve in a file.
const serverKey = "programme-key-4b1d-never-in-the-browser"

// writeKeyFile writes key to a file of the given mode and returns its path.
func writeKeyFile(t testing.TB, key string, mode os.FileMode) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "api-key")
	if err := os.WriteFile(path, []byte(key+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestServeReadsTheAPIKeyFileOnceAtStart(t *testing.T) {
	noEnv := func(string) string { return "" }
	file := writeKeyFile(t, serverKey, 0o600)
	for _, c := range []struct {
		name string
		args []string
		env  map[string]string
		want []string
	}{
		{"readable by others", []string{"-sandbox", "-api-key-file", writeKeyFile(t, serverKey, 0o644)}, nil, []string{"-api-key-file", "expected 0600", "chmod 600"}},
		{"missing", []string{"-sandbox", "-api-key-file", file + ".missing"}, nil, []string{"-api-key-file", file + ".missing", "cannot be opened"}},
		{"empty", []string{"-sandbox", "-api-key-file", writeKeyFile(t, "", 0o600)}, nil, []string{"-api-key-file", "is empty"}},
		{"back office from the environment", []string{"-sandbox"}, map[string]string{envBOAPIKeyFile: writeKeyFile(t, serverKey, 0o660)}, []string{"-backoffice-api-key-file", "chmod 600"}},
		{"no API to give it to", []string{"-api-key-file", file}, nil, []string{"-api-url or -sandbox"}},
		{"two keys for the sandbox", []string{"-sandbox", "-api-key-file", file, "-backoffice-api-key-file", writeKeyFile(t, "another-"+serverKey, 0o600)}, nil, []string{"one api-key"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stderr strings.Builder
			_, err := parseServe(c.args, func(k string) string { return c.env[k] }, &stderr)
			if err == nil {
				t.Fatal("serve accepted it")
			}
			for _, want := range c.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%q lacks %q", err, want)
				}
			}
			if strings.Contains(err.Error()+stderr.String(), serverKey) {
				t.Errorf("the key is shown: %v %s", err, stderr.String())
			}
		})
	}

	// From the environment; the back-office API gets the same key.
	cfg, err := parseServe([]string{"-api-url", "https://api.example/multi", "-backoffice-url", "https://api.example/multi/backoffice"}, func(k string) string {
		return map[string]string{envAPIKeyFile: file}[k]
	}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.apiKey.Value() != serverKey || cfg.backOfficeKey.Value() != serverKey {
		t.Errorf("the keys read: %v %v", cfg.apiKey, cfg.backOfficeKey)
	}
	if api := consoleAPI(cfg); !api.ServerKey || !api.BackOfficeServerKey {
		t.Errorf("the console is not told the server supplies the keys: %+v", api)
	}
	cfg, err = parseServe([]string{"-api-url", "https://api.example/multi", "-api-key-file", file, "-backoffice-api-key-file", writeKeyFile(t, "bo-"+serverKey, 0o600)}, noEnv, io.Discard)
	if err != nil || cfg.backOfficeKey.Value() != "bo-"+serverKey {
		t.Errorf("a back-office key of its own: %v, %v", cfg.backOfficeKey, err)
	}

	// The sandbox the proxy leads to takes the key: the page gets none.
	api := consoleAPI(mustParse(t, "-sandbox", "-api-key-file", file))
	if sb := api.Sandbox; !api.ServerKey || !api.BackOfficeServerKey || sb == nil || sb.APIKey != "" || sb.Token != sandbox.DefaultToken || sb.Identity != "CORPORATE:1001" {
		t.Errorf("the sandbox with the server's key: %+v %+v", api, api.Sandbox)
	}
	// Beside a real API the key is that API's: the sandbox keeps its own.
	api = consoleAPI(mustParse(t, "-sandbox", "-api-url", "https://api.example/multi", "-api-key-file", file))
	if sb := api.Sandbox; !api.ServerKey || api.BackOfficeServerKey || sb == nil || sb.APIKey != sandbox.DefaultAPIKey {
		t.Errorf("the sandbox beside a real API: %+v %+v", api, api.Sandbox)
	}
}

func mustParse(t testing.TB, args ...string) serveConfig {
	t.Helper()
	cfg, err := parseServe(args, func(string) string { return "" }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestTheAPIKeyStaysOnTheServer serves the sandbox with the server's key:
// the console's calls through the proxy, the record of bulks and a
// back-office token need no api-key from the browser, and neither the
// page, its script, the metrics nor the log ever holds the key.
func TestTheAPIKeyStaysOnTheServer(t *testing.T) {
	var log fixture.LogBuffer
	cfg, err := parseServe([]string{"-addr", "127.0.0.1:0", "-sandbox", "-api-key-file", writeKeyFile(t, serverKey, 0o600), "-state-dir", t.TempDir()}, func(string) string { return "" }, &log)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base, done := serveMini(t, ctx, cfg)
	defer func() {
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("serve did not stop")
		}
	}()
	reqCtx, stop := context.WithTimeout(ctx, 30*time.Second)
	defer stop()

	// The bearer token alone, through the proxy.
	client, err := bulkapi.New(bulkapi.Config{BaseURL: base + "api", BackOfficeURL: base + "backoffice", Token: sandbox.DefaultToken})
	if err != nil {
		t.Fatal(err)
	}
	kind, _ := schema.Lookup("card_blocks")
	receipt, err := client.Submit(reqCtx, kind, []byte(`[{"pathParams":{"_id_":"1"}}]`), "serve-key-1")
	if err != nil {
		t.Fatalf("a submission with no api-key through the proxy: %v", err)
	}
	if _, err := client.Get(reqCtx, receipt.BulkID); err != nil {
		t.Errorf("reading the bulk: %v", err)
	}
	bo, err := client.BackOffice()
	if err != nil {
		t.Fatal(err)
	}
	if tok, err := bo.AccessToken(reqCtx, sandbox.DefaultIdentity); err != nil || tok.Token == "" {
		t.Errorf("a back-office token with no api-key through the proxy: %v", err)
	}
	record, err := recordhttp.Fetch(reqCtx, &http.Client{Timeout: 30 * time.Second}, base+"record/api", client.Credentials(), kind, nil, nil)
	if err != nil || len(record.Bulks) != 1 {
		t.Errorf("the record of bulks with no api-key: %+v, %v", record, err)
	}
	// The sandbox took the server's key in place of its public one.
	direct, _ := bulkapi.New(bulkapi.Config{BaseURL: base + "sandbox/multi", APIKey: sandbox.DefaultAPIKey, Token: sandbox.DefaultToken})
	if _, err := direct.List(reqCtx, bulkapi.ListQuery{Limit: 1}); err == nil {
		t.Error("the sandbox still takes its public api-key")
	}

	httpc := &http.Client{Timeout: 10 * time.Second}
	get := func(path string) string {
		t.Helper()
		res, err := httpc.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return string(b)
	}
	if script := get("app.js"); !strings.Contains(script, `\"serverKey\":true`) && !strings.Contains(script, `"serverKey":true`) {
		t.Errorf("the page's configuration does not say the server supplies the key:\n%.2000s", script)
	}
	for _, path := range []string{"", "settings", "app.js", "metrics", "manifest.webmanifest", "healthz"} {
		if strings.Contains(get(path), serverKey) {
			t.Errorf("GET /%s holds the server's key", path)
		}
	}
	logged := log.WaitFor("path=/api/bulks")
	if strings.Contains(logged, serverKey) {
		t.Errorf("the log holds the server's key:\n%s", logged)
	}
}
