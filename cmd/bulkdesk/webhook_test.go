package main

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/webhook"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/receiver"
)

// vectorDir is where the openssl-computed signature vectors live.
var vectorDir = filepath.Join("..", "..", "app", "webhook", "testdata", "vectors")

func vectorFile(t *testing.T, vector, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(vectorDir, vector, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// useKey puts the vector's key in an environment variable for the test.
func useKey(t *testing.T, vector string) {
	t.Helper()
	t.Setenv("BULKDESK_TEST_WEBHOOK_KEY", vectorFile(t, vector, "key"))
}

func TestWebhookVerifyVectors(t *testing.T) {
	dirs, err := os.ReadDir(vectorDir)
	if err != nil || len(dirs) == 0 {
		t.Fatal("no vectors", err)
	}
	for _, d := range dirs {
		t.Run(d.Name(), func(t *testing.T) {
			useKey(t, d.Name())
			dir := filepath.Join(vectorDir, d.Name())
			code, out, errOut := runCLI(t, "webhook", "verify", "-key-env", "BULKDESK_TEST_WEBHOOK_KEY", "-skip-clock",
				"-headers", filepath.Join(dir, "headers"), "-body", filepath.Join(dir, "body"))
			if code != exitOK || errOut != "" || !strings.Contains(out, "verdict: accepted") || strings.Contains(out, "signed message (") {
				t.Errorf("exit %d\n%s%s", code, out, errOut)
			}
		})
	}
}

func TestWebhookVerifyShowsWhatWasSigned(t *testing.T) {
	const vec = "non_ascii_trailing_whitespace"
	useKey(t, vec)
	body := vectorFile(t, vec, "body")
	trimmedBody := strings.TrimRight(body, " \t\n") + "\n"
	trimmed := writeFile(t, "body", trimmedBody)
	code, out, _ := runCLI(t, "webhook", "verify", "-key-env", "BULKDESK_TEST_WEBHOOK_KEY", "-skip-clock",
		"-headers", filepath.Join(vectorDir, vec, "headers"), "-body", trimmed)
	if code != exitInvalid {
		t.Fatalf("exit %d\n%s", code, out)
	}
	for _, want := range []string{
		"signature-v2         mismatch",
		`"ref-ü-0002{\"eventType\":\"COMPLETED\"`,
		`café ✓\"}\n1761909600123"`, // the newline at the end of the body shows
		fmt.Sprintf("body:                %d bytes, SHA-256 %x", len(trimmedBody), sha256.Sum256([]byte(trimmedBody))),
		"received: " + vectorFile(t, vec, "signature-v2"),
		"verdict: REFUSED (unauthentic): signature-v2: does not match",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, vectorFile(t, vec, "key")) {
		t.Error("the key is in the output")
	}

	// The JSON form carries the exact message, and -message-out writes it.
	msgFile := filepath.Join(t.TempDir(), "message")
	code, out, _ = runCLI(t, "webhook", "verify", "-key-env", "BULKDESK_TEST_WEBHOOK_KEY", "-format", "json", "-message-out", msgFile,
		"-headers", filepath.Join(vectorDir, vec, "headers"), "-body", filepath.Join(vectorDir, vec, "body"))
	var got struct {
		Accepted bool   `json:"accepted"`
		Fault    string `json:"fault"`
		Verdicts []struct {
			Header, Status, Expected string
		} `json:"verdicts"`
		Signed struct {
			Message       string `json:"message"`
			MessageBase64 string `json:"messageBase64"`
			BodyLength    int    `json:"bodyLength"`
			BodySHA256    string `json:"bodySHA256"`
		} `json:"signed"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	msg := vectorFile(t, vec, "message")
	// The vector was published long ago: the clock refuses it.
	if code != exitInvalid || got.Accepted || got.Fault != "unauthentic" || got.Signed.Message != msg ||
		got.Signed.MessageBase64 != base64.StdEncoding.EncodeToString([]byte(msg)) ||
		got.Signed.BodyLength != len(body) || got.Signed.BodySHA256 != vectorFile(t, vec, "body.sha256") ||
		got.Verdicts[0].Header != "signature-v2" || got.Verdicts[0].Status != "valid" || got.Verdicts[0].Expected != vectorFile(t, vec, "signature-v2") ||
		got.Verdicts[3].Status != "outside-window" {
		t.Errorf("exit %d, %+v", code, got)
	}
	if b, _ := os.ReadFile(msgFile); string(b) != msg {
		t.Errorf("-message-out wrote %q", b)
	}
}

func TestWebhookSignMatchesVectors(t *testing.T) {
	for _, vec := range []string{"basic", "non_ascii_trailing_whitespace", "call_ref_255", "absent_call_ref", "non_ascii_key", "empty_body"} {
		t.Run(vec, func(t *testing.T) {
			useKey(t, vec)
			args := []string{"webhook", "sign", "-key-env", "BULKDESK_TEST_WEBHOOK_KEY", "-body", filepath.Join(vectorDir, vec, "body"),
				"-timestamp", vectorFile(t, vec, "published-timestamp")}
			if ref, err := os.ReadFile(filepath.Join(vectorDir, vec, "call-ref")); err == nil {
				args = append(args, "-call-ref", string(ref))
			}
			code, out, errOut := runCLI(t, args...)
			if code != exitOK || out != vectorFile(t, vec, "headers") {
				t.Errorf("exit %d %s\ngot:\n%s\nwant:\n%s", code, errOut, out, vectorFile(t, vec, "headers"))
			}
		})
	}
}

func TestWebhookSignThenVerify(t *testing.T) {
	t.Setenv("K", "a key")
	body := writeFile(t, "body.json", "{\"bulkId\":\"1\"}\r\n")
	code, headers, errOut := runCLI(t, "webhook", "sign", "-key-env", "K", "-body", body, "-call-ref", "r-1", "-timestamp", "2025-10-31T11:20:00Z", "-format", "json")
	if code != exitOK || !strings.Contains(headers, `"published-timestamp": "1761909600000"`) {
		t.Fatalf("sign: exit %d %s\n%s", code, errOut, headers)
	}
	code, out, errOut := runCLI(t, "webhook", "verify", "-key-env", "K", "-skip-clock", "-headers", writeFile(t, "h.json", headers), "-body", body)
	if code != exitOK {
		t.Errorf("verify: exit %d %s\n%s", code, errOut, out)
	}
	// Signed now, it passes the clock too.
	_, headers, _ = runCLI(t, "webhook", "sign", "-key-env", "K", "-body", body)
	if code, out, _ := runCLI(t, "webhook", "verify", "-key-env", "K", "-headers", writeFile(t, "h.txt", headers), "-body", body); code != exitOK {
		t.Errorf("verify now: exit %d\n%s", code, out)
	}
}

func TestWebhookUsageErrors(t *testing.T) {
	t.Setenv("EMPTY_KEY", "")
	t.Setenv("K", "k")
	body := writeFile(t, "b", "{}")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"webhook"}, "usage: bulkdesk webhook"},
		{[]string{"webhook", "nope"}, `unknown subcommand "nope"`},
		{[]string{"webhook", "verify", "-headers", body, "-body", body}, "-key-env is required"},
		{[]string{"webhook", "verify", "-key-env", "EMPTY_KEY", "-headers", body, "-body", body}, "EMPTY_KEY is empty or not set"},
		{[]string{"webhook", "verify", "-key-env", "K", "-headers", "/does/not/exist", "-body", body}, "no such file"},
		{[]string{"webhook", "verify", "-key-env", "K", "-headers", writeFile(t, "h", "garbage line\n"), "-body", body}, "line 1:"},
		{[]string{"webhook", "verify", "-key-env", "K", "-headers", "-", "-body", "-"}, "usage:"},
		{[]string{"webhook", "sign", "-key-env", "K", "-body", body, "-call-ref", strings.Repeat("x", 256)}, "256 characters"},
		{[]string{"webhook", "sign", "-key-env", "K", "-body", body, "-timestamp", "tomorrow"}, "neither milliseconds"},
		{[]string{"webhook", "send", "-key-env", "K", "-body", body, "-url", "http://127.0.0.1:1", "-type", "/nope/watch"}, "not an event path"},
	} {
		code, out, errOut := runCLI(t, tc.args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", tc.args, code, out, errOut, tc.want)
		}
	}
}

func TestWebhookSendToAReceiver(t *testing.T) {
	t.Setenv("K", "receiver-key")
	t.Setenv("WRONG", "another-key")
	rc, err := receiver.New(receiver.Config{Key: webhook.NewKey("receiver-key"), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(rc.Handler())
	defer func() { rc.CloseStreams(); srv.Close(); rc.Close() }()
	body := writeFile(t, "end.json", `{"bulkId":"5","status":"COMPLETED"}`)

	code, out, errOut := runCLI(t, "webhook", "send", "-key-env", "K", "-url", srv.URL+"/webhooks", "-type", "bulk_process_end/watch", "-body", body, "-call-ref", "c")
	if code != exitOK || !strings.Contains(out, "/webhooks/bulk_process_end/watch: accepted") {
		t.Errorf("send: exit %d %s %s", code, out, errOut)
	}
	code, _, errOut = runCLI(t, "webhook", "send", "-key-env", "WRONG", "-url", srv.URL+"/webhooks", "-type", "/bulk_process_end/watch", "-body", body)
	if code != exitInvalid || !strings.Contains(errOut, "401") || !strings.Contains(errOut, "does not match") {
		t.Errorf("send with the wrong key: exit %d %s", code, errOut)
	}
	resp, err := http.Get(srv.URL + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var evs []webhook.Event
	if err := json.NewDecoder(resp.Body).Decode(&evs); err != nil || len(evs) != 1 || evs[0].Summary.BulkID != "5" {
		t.Errorf("events %+v %v", evs, err)
	}
}

func TestWebhookTypes(t *testing.T) {
	code, out, _ := runCLI(t, "webhook", "types")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != exitOK || len(lines) != len(webhook.Types()) || !strings.HasPrefix(lines[len(lines)-1], "/bulk_process_end/watch") {
		t.Errorf("exit %d\n%s", code, out)
	}
}
