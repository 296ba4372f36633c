// Package browsertest runs headless Chromium for the browser tests and
// benchmarks of bulkdesk: the console against the real server, and later
// the sandbox and the webhook receiver.
//
// It launches Debian's /usr/bin/chromium (or $CHROMIUM) with the project's
// flags and a fresh profile per browser, and drives it with chromedp. When
// Chromium is absent the test is skipped, except under CI=true, where that
// is a failure: CI installs Chromium and must run the browser tests.
//
// Chromium runs natively beside the tests, so the package builds only for
// the native platforms: under GOOS=js it is empty (chromedp does not build
// there), and so are the browser tests that use it.
package browsertest
