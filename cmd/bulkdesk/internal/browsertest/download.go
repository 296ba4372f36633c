package browsertest

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// AllowDownloads makes the browser save the files pages download in a
// fresh folder, and returns the folder.
func (b *Browser) AllowDownloads() string {
	b.tb.Helper()
	dir := b.tb.TempDir()
	params := browser.SetDownloadBehaviorParams{Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir}
	if _, err := cdp.Call(b.ctx, chromedp.FromContext(b.ctx).Browser, browser.SetDownloadBehavior, params); err != nil {
		b.tb.Fatalf("allowing downloads: %v", err)
	}
	return dir
}

// WaitForDownload waits up to timeout for a file named name to be saved
// whole in dir, and returns its content.
func (b *Browser) WaitForDownload(timeout time.Duration, dir, name string) []byte {
	b.tb.Helper()
	deadline := time.Now().Add(timeout)
	for {
		entries, _ := os.ReadDir(dir)
		partial := false
		for _, e := range entries {
			partial = partial || strings.HasSuffix(e.Name(), ".crdownload")
		}
		if data, err := os.ReadFile(filepath.Join(dir, name)); err == nil && !partial && len(data) > 0 {
			return data
		}
		if time.Now().After(deadline) {
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			b.tb.Fatalf("no download %s in %v; the folder holds %q%s", name, timeout, names, b.problemList())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
