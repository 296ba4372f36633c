//go:build !js

package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture/eventually"
	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
)

// AllowDownloads lets the page download files, as a person saving what
// the page offers, into a fresh folder it returns.
func (b *Browser) AllowDownloads() string {
	b.tb.Helper()
	dir := b.tb.TempDir()
	b.Do(10*time.Second, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Call(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
			Behavior:     browser.SetDownloadBehaviorBehaviorAllow,
			DownloadPath: dir,
		})
		return err
	}))
	return dir
}

// Downloaded waits up to timeout for the file name to be downloaded into
// dir (see AllowDownloads) and returns its content.
func (b *Browser) Downloaded(timeout time.Duration, dir, name string) []byte {
	b.tb.Helper()
	path := filepath.Join(dir, name)
	var data []byte
	if eventually.Until(timeout, func() bool {
		var err error
		if data, err = os.ReadFile(path); err != nil {
			return false
		}
		_, partial := os.Stat(path + ".crdownload")
		return os.IsNotExist(partial)
	}) {
		return data
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	b.shootFailure()
	said := ""
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	if v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.getElementById("announcer") || {textContent: ""}).textContent`)); err == nil {
		said = v
	}
	cancel()
	b.tb.Fatalf("no download %s within %v; the folder holds %q; the page announced %q%s", name, timeout, names, said, b.problemList())
	return nil
}
