//go:build !js

package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// ScreenshotEnv names the folder where the browser tests leave their
// pictures, for a person to look at: every named shot, and a shot of
// each failed wait. Unset, named shots go to the test's temporary folder
// and failures take none.
const ScreenshotEnv = "BULKDESK_SCREENSHOTS"

// shotPath is where a picture called name goes.
func (b *Browser) shotPath(name string) string {
	dir := os.Getenv(ScreenshotEnv)
	if dir == "" {
		dir = b.tb.TempDir()
	}
	return filepath.Join(dir, name)
}

// Shoot saves a PNG of the tab's viewport as name and returns its path.
func (b *Browser) Shoot(name string) string {
	b.tb.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.tb.Fatalf("taking a screenshot: %v", err)
	}
	return b.save(name, png)
}

// ShootElement saves a PNG of the whole element selector finds, with a
// margin, as name and returns its path.
func (b *Browser) ShootElement(selector, name string) string {
	b.tb.Helper()
	png := b.ShootClip(`(() => {
  const r = document.querySelector(` + JSString(selector) + `).getBoundingClientRect();
  const x = Math.max(0, Math.floor(r.left) - 12), y = Math.max(0, Math.floor(r.top + scrollY) - 12);
  return {x, y, width: Math.ceil(r.width) + 24, height: Math.ceil(r.height) + 24, scale: 1};
})()`)
	return b.save(name, png)
}

// ShootClip returns a PNG of the part of the page that clip, a script
// giving {x, y, width, height, scale} in page coordinates, describes,
// beyond the viewport if need be. It waits two frames first, for what
// the page just changed to be painted.
func (b *Browser) ShootClip(clip string) []byte {
	b.tb.Helper()
	b.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))`, chromedp.EvalAwaitPromise))
	area := Eval[page.Viewport](b, 5*time.Second, clip)
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.Action[[]byte](func(ctx context.Context, tg *chromedp.Target) ([]byte, error) {
		res, err := cdp.Call(ctx, tg, page.CaptureScreenshot, page.CaptureScreenshotParams{
			Format: page.CaptureScreenshotFormatPng, Clip: &area, CaptureBeyondViewport: new(true),
		})
		return res.Data, err
	}))
	if err != nil {
		b.tb.Fatalf("capturing %s: %v", clip, err)
	}
	return png
}

func (b *Browser) save(name string, png []byte) string {
	b.tb.Helper()
	path := b.shotPath(name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.tb.Fatalf("saving a screenshot: %v", err)
	}
	b.tb.Logf("wrote %s", path)
	return path
}

// shootFailure saves a screenshot of a failed wait, named after the
// test, when ScreenshotEnv is set.
func (b *Browser) shootFailure() {
	dir := os.Getenv(ScreenshotEnv)
	if dir == "" {
		return
	}
	name := strings.NewReplacer("/", "-", " ", "_").Replace(b.tb.Name()) + "-failed.png"
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	if png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()); err == nil {
		os.WriteFile(filepath.Join(dir, name), png, 0o644)
	}
}
