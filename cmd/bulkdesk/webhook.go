package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/bulkdesk/bulkdesk/app/webhook"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/termsafe"
)

// runWebhook implements "bulkdesk webhook": checking, making and sending
// signed webhook events, for integrators' scripts and tests.
func runWebhook(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	sub := map[string]func([]string, io.Reader, io.Writer, io.Writer) int{
		"verify": runWebhookVerify,
		"sign":   runWebhookSign,
		"send":   runWebhookSend,
		"types":  runWebhookTypes,
	}
	if len(args) == 0 || sub[args[0]] == nil {
		if len(args) > 0 && args[0] != "-h" && args[0] != "-help" && args[0] != "--help" {
			termsafe.Fprintf(stderr, "bulkdesk webhook: unknown subcommand %q\n\n", args[0])
		}
		fmt.Fprint(stderr, `usage: bulkdesk webhook <subcommand> [flags]

subcommands:
  verify   check the signatures of a captured event (headers and body files)
  sign     print the headers that sign a body, as the API would send them
  send     sign a body and post it to a receiver
  types    list the event paths of the webhook reference

The key is always read from an environment variable (-key-env NAME), never
from the command line, which other users of the machine can see.
Run "bulkdesk webhook <subcommand> -h" for its flags.
`)
		if len(args) == 0 || sub[args[0]] == nil && !strings.HasPrefix(args[0], "-") {
			return exitUsage
		}
		return exitOK
	}
	return sub[args[0]](args[1:], stdin, stdout, stderr)
}

// keyFromEnv reads the key from the environment variable name.
func keyFromEnv(name string) (webhook.Key, error) {
	if name == "" {
		return webhook.Key{}, errors.New("-key-env is required: the name of the environment variable that holds the API key")
	}
	v := os.Getenv(name)
	if v == "" {
		return webhook.Key{}, fmt.Errorf("environment variable %s is empty or not set", name)
	}
	return webhook.NewKey(v), nil
}

// readInput reads a file, or standard input for "-".
func readInput(path string, stdin io.Reader) ([]byte, error) {
	if path == "-" {
		return io.ReadAll(stdin)
	}
	return os.ReadFile(path)
}

// newFlagSet returns a flag set that reports to stderr with the usage line.
func newFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, usage)
		fs.PrintDefaults()
	}
	return fs
}

func runWebhookVerify(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("webhook verify", `usage: bulkdesk webhook verify -key-env NAME -headers FILE -body FILE [flags]

Checks both signature headers of a captured event against its body, byte
for byte, and says for each header what is right or wrong. On a mismatch it
shows the exact message signature-v2 should sign. FILE may be "-" for
standard input (one of the two). The headers file takes "Name: value" lines
(as curl -v or a proxy log shows them) or a JSON object.
Exit status: 0 the event passes, 1 it is refused, 2 usage error or
unreadable input.`, stderr)
	keyEnv := fs.String("key-env", "", "environment variable holding the API key")
	headersPath := fs.String("headers", "", "file with the request headers")
	bodyPath := fs.String("body", "", "file with the request body, exactly as received")
	tolerance := fs.Duration("tolerance", webhook.DefaultTolerance, "how far published-timestamp may be from the clock, each way")
	skipClock := fs.Bool("skip-clock", false, "do not compare published-timestamp with the clock (for an event captured earlier)")
	format := fs.String("format", "text", "output format: text or json")
	messageOut := fs.String("message-out", "", "write the exact message signature-v2 signs to this file")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() != 0 || *headersPath == "" || *bodyPath == "" || (*format != "text" && *format != "json") || (*headersPath == "-" && *bodyPath == "-") {
		fs.Usage()
		return exitUsage
	}
	fail := func(err error) int {
		termsafe.Fprintln(stderr, "bulkdesk webhook verify:", err)
		return exitUsage
	}
	key, err := keyFromEnv(*keyEnv)
	if err != nil {
		return fail(err)
	}
	headerText, err := readInput(*headersPath, stdin)
	if err != nil {
		return fail(err)
	}
	h, err := webhook.ParseHeaders(headerText)
	if err != nil {
		return fail(fmt.Errorf("%s: %w", *headersPath, err))
	}
	body, err := readInput(*bodyPath, stdin)
	if err != nil {
		return fail(err)
	}
	v := &webhook.Verifier{Key: key, Tolerance: *tolerance, SkipClock: *skipClock}
	res := v.Verify(h, body)
	if *messageOut != "" {
		if err := os.WriteFile(*messageOut, res.Signed.Message, 0o600); err != nil {
			return fail(err)
		}
	}
	if *format == "json" {
		err = writeVerifyJSON(stdout, res)
	} else {
		err = writeVerifyText(stdout, res, *keyEnv)
	}
	if err != nil {
		return fail(fmt.Errorf("writing the result: %w", err))
	}
	if !res.OK() {
		return exitInvalid
	}
	return exitOK
}

func faultName(f webhook.Fault) string {
	switch f {
	case webhook.FaultMalformed:
		return "malformed"
	case webhook.FaultUnauthentic:
		return "unauthentic"
	}
	return "none"
}

// cliVerdict is a verdict as the command line prints it: with the
// expected signature, since whoever runs it holds the key.
type cliVerdict struct {
	webhook.Verdict
	Expected string `json:"expected,omitempty"`
}

func writeVerifyJSON(w io.Writer, res *webhook.Result) error {
	var verdicts []cliVerdict
	for _, vd := range res.Verdicts() {
		verdicts = append(verdicts, cliVerdict{vd, vd.Expected})
	}
	out := struct {
		Accepted    bool         `json:"accepted"`
		Fault       string       `json:"fault"`
		Reason      string       `json:"reason,omitempty"`
		PublishedAt *time.Time   `json:"publishedAt,omitempty"`
		Verdicts    []cliVerdict `json:"verdicts"`
		Signed      struct {
			webhook.Signed
			Message       string `json:"message"`
			MessageBase64 string `json:"messageBase64"`
		} `json:"signed"`
	}{Accepted: res.OK(), Fault: faultName(res.Fault()), Reason: res.Reason(), Verdicts: verdicts}
	if !res.PublishedAt.IsZero() {
		out.PublishedAt = &res.PublishedAt
	}
	out.Signed.Signed = res.Signed
	out.Signed.Message = string(res.Signed.Message)
	out.Signed.MessageBase64 = base64.StdEncoding.EncodeToString(res.Signed.Message)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

func writeVerifyText(w io.Writer, res *webhook.Result, keyEnv string) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, vd := range res.Verdicts() {
		termsafe.Fprintf(tw, "%s\t%s\t%s\n", vd.Header, vd.Status, vd.Reason)
		for _, hint := range vd.Hints {
			termsafe.Fprintf(tw, "\t\thint: %s\n", hint)
		}
		if vd.Status == webhook.StatusMismatch {
			termsafe.Fprintf(tw, "\t\treceived: %s\n", vd.Value)
			termsafe.Fprintf(tw, "\t\texpected: %s (with the key in $%s)\n", vd.Expected, keyEnv)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if res.SignatureV2.Status != webhook.StatusValid {
		s := res.Signed
		termsafe.Fprintf(w, "\nsigned message (%d bytes), call-ref + body + published-timestamp:\n  %s\n", len(s.Message), quote(s.Message))
		termsafe.Fprintf(w, "  call-ref:            %s (%d bytes)\n", quote([]byte(s.CallRef)), len(s.CallRef))
		termsafe.Fprintf(w, "  body:                %d bytes, SHA-256 %s\n", s.BodyLength, s.BodySHA256)
		termsafe.Fprintf(w, "  published-timestamp: %s\n", quote([]byte(s.Timestamp)))
	}
	verdict := "accepted"
	if !res.OK() {
		verdict = fmt.Sprintf("REFUSED (%s): %s", faultName(res.Fault()), res.Reason())
	}
	_, err := termsafe.Fprintf(w, "\nverdict: %s\n", verdict)
	return err
}

// quote shows bytes as a Go string literal, which makes trailing spaces,
// tabs, line endings and invalid UTF-8 visible. Long messages keep their
// start and end.
func quote(b []byte) string {
	const keep = 200
	if len(b) <= 2*keep {
		return strconv.Quote(string(b))
	}
	head, tail := b[:keep], b[len(b)-keep:]
	for len(head) > 0 && !utf8.Valid(head) { // do not cut a character in two
		head = head[:len(head)-1]
	}
	for len(tail) > 0 && !utf8.Valid(tail) {
		tail = tail[1:]
	}
	return fmt.Sprintf("%s … (%d bytes not shown) … %s", strconv.Quote(string(head)), len(b)-len(head)-len(tail), strconv.Quote(string(tail)))
}

// parseWhen reads -timestamp: milliseconds since the epoch, used as
// written, or an RFC 3339 time.
func parseWhen(s string) (string, error) {
	if s == "" {
		return webhook.FormatTimestamp(time.Now()), nil
	}
	if _, err := webhook.ParseTimestamp(s); err == nil {
		return s, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return "", fmt.Errorf("-timestamp %q is neither milliseconds since 1970 nor an RFC 3339 time such as 2025-10-31T11:20:00Z", s)
	}
	return webhook.FormatTimestamp(t), nil
}

func runWebhookSign(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("webhook sign", `usage: bulkdesk webhook sign -key-env NAME -body FILE [-call-ref REF] [-timestamp WHEN] [-format headers|json]

Prints the headers that sign the body as an event: call-ref (when given),
published-timestamp, signature and signature-v2. The "headers" format is
what "bulkdesk webhook verify -headers" reads. FILE may be "-" for standard
input.`, stderr)
	keyEnv := fs.String("key-env", "", "environment variable holding the API key")
	bodyPath := fs.String("body", "", "file with the body to sign, byte for byte")
	callRef := fs.String("call-ref", "", "call-ref header value (at most 255 characters; none by default)")
	when := fs.String("timestamp", "", "published-timestamp: milliseconds since 1970 or an RFC 3339 time (default now)")
	format := fs.String("format", "headers", "output format: headers or json")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() != 0 || *bodyPath == "" || (*format != "headers" && *format != "json") {
		fs.Usage()
		return exitUsage
	}
	fail := func(err error) int {
		termsafe.Fprintln(stderr, "bulkdesk webhook sign:", err)
		return exitUsage
	}
	key, err := keyFromEnv(*keyEnv)
	if err != nil {
		return fail(err)
	}
	if n := utf8.RuneCountInString(*callRef); n > webhook.MaxCallRef {
		return fail(fmt.Errorf("-call-ref is %d characters, more than the %d allowed", n, webhook.MaxCallRef))
	}
	ts, err := parseWhen(*when)
	if err != nil {
		return fail(err)
	}
	body, err := readInput(*bodyPath, stdin)
	if err != nil {
		return fail(err)
	}
	type header struct{ name, value string }
	var headers []header
	if *callRef != "" {
		headers = append(headers, header{webhook.HeaderCallRef, *callRef})
	}
	headers = append(headers,
		header{webhook.HeaderPublishedTimestamp, ts},
		header{webhook.HeaderSignature, webhook.Signature(key, ts)},
		header{webhook.HeaderSignatureV2, webhook.SignatureV2(key, *callRef, body, ts)})
	if *format == "json" {
		obj := map[string]string{}
		for _, h := range headers {
			obj[h.name] = h.value
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		err = enc.Encode(obj)
	} else {
		for _, h := range headers {
			if _, err = termsafe.Fprintf(stdout, "%s: %s\n", h.name, h.value); err != nil {
				break
			}
		}
	}
	if err != nil {
		return fail(err)
	}
	return exitOK
}

func runWebhookSend(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("webhook send", `usage: bulkdesk webhook send -key-env NAME -url BASE -type PATH -body FILE [flags]

Signs the body as an event published now and posts it to BASE + PATH, as
the API does: for a local "bulkdesk serve", BASE is
http://127.0.0.1:8080/webhooks. Exit status: 0 accepted, 1 refused (the
receiver's answer is printed), 2 usage error or no answer.`, stderr)
	keyEnv := fs.String("key-env", "", "environment variable holding the API key")
	base := fs.String("url", "", "the receiver's base URL")
	typ := fs.String("type", "", `event path, such as /bulk_process_end/watch ("bulkdesk webhook types" lists them)`)
	bodyPath := fs.String("body", "", "file with the JSON body to send")
	callRef := fs.String("call-ref", "", "call-ref header value")
	requestRef := fs.String("request-ref", "", "request-ref header value")
	timeout := fs.Duration("timeout", webhook.DefaultSendTimeout, "how long to wait for the receiver")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() != 0 || *base == "" || *typ == "" || *bodyPath == "" {
		fs.Usage()
		return exitUsage
	}
	fail := func(err error) int {
		termsafe.Fprintln(stderr, "bulkdesk webhook send:", err)
		return exitUsage
	}
	key, err := keyFromEnv(*keyEnv)
	if err != nil {
		return fail(err)
	}
	t, ok := webhook.LookupType(*typ)
	if !ok {
		return fail(fmt.Errorf("-type %q is not an event path of the webhook reference", *typ))
	}
	body, err := readInput(*bodyPath, stdin)
	if err != nil {
		return fail(err)
	}
	s := &webhook.Sender{Key: key, Timeout: *timeout}
	err = s.Send(context.Background(), *base, webhook.Delivery{Type: t.Path, Body: body, CallRef: *callRef, RequestRef: *requestRef})
	var refused *webhook.DeliveryError
	switch {
	case errors.As(err, &refused):
		termsafe.Fprintln(stderr, "bulkdesk webhook send:", err)
		return exitInvalid
	case err != nil:
		return fail(err)
	}
	termsafe.Fprintf(stdout, "%s: accepted\n", strings.TrimRight(*base, "/")+t.Path)
	return exitOK
}

func runWebhookTypes(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("webhook types", "usage: bulkdesk webhook types\n\nLists the event paths of the webhook reference, with their titles.", stderr)
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	for _, t := range webhook.Types() {
		termsafe.Fprintf(tw, "%s\t%s\t%s\n", t.Path, t.Title, t.Group)
	}
	if err := tw.Flush(); err != nil {
		return exitUsage
	}
	return exitOK
}
