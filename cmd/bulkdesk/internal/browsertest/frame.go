//go:build !js

package browsertest

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The helpers of this file act inside an iframe of the tab's page that
// runs in the page's own process: a frame of the same site (another port
// of 127.0.0.1), as a portal shows the console. A frame of another site
// is a target of its own: see Frame.
//
// Each evaluation runs in an isolated world made in the frame at that
// moment: it sees the frame's document and storage, not the frame's
// script variables, and it is made afresh after the frame navigates.

// frameByURL finds the frame of tree whose URL starts with prefix.
func frameByURL(tree *page.FrameTree, prefix string) *cdp.Frame {
	if tree == nil {
		return nil
	}
	if tree.Frame != nil && tree.Frame.ParentID != "" && strings.HasPrefix(tree.Frame.URL, prefix) {
		return tree.Frame
	}
	for _, child := range tree.ChildFrames {
		if f := frameByURL(child, prefix); f != nil {
			return f
		}
	}
	return nil
}

// evaluateIn is an action that evaluates expr in the frame whose URL
// starts with prefix, awaiting a promise.
func evaluateIn[T any](prefix, expr string) chromedp.Action[T] {
	return func(ctx context.Context, tg *chromedp.Target) (T, error) {
		var zero T
		tree, err := cdp.Call(ctx, tg, page.GetFrameTree, cdp.Empty{})
		if err != nil {
			return zero, fmt.Errorf("reading the page's frames: %w", err)
		}
		frame := frameByURL(tree.FrameTree, prefix)
		if frame == nil {
			return zero, fmt.Errorf("no frame at %s", prefix)
		}
		world, err := cdp.Call(ctx, tg, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: frame.ID, WorldName: "browsertest"})
		if err != nil {
			return zero, fmt.Errorf("entering the frame at %s: %w", frame.URL, err)
		}
		inWorld := func(p *runtime.EvaluateParams) { p.ContextID = world.ExecutionContextID }
		return chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise, inWorld)(ctx, tg)
	}
}

// EvalIn evaluates a JavaScript expression in the frame of b's page whose
// URL starts with prefix, awaiting it if it is a promise, and decodes its
// value into a T, as Eval does in the page.
func EvalIn[T any](b *Browser, prefix string, timeout time.Duration, expr string) T {
	b.tb.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	v, err := chromedp.Run(ctx, evaluateIn[T](prefix, expr))
	if err != nil {
		b.tb.Fatalf("evaluating %s in the frame at %s: %v%s", expr, prefix, err, b.problemList())
	}
	return v
}

// PressIn presses the element selector finds in the frame at prefix, as
// Press does in the page.
func (b *Browser) PressIn(prefix, selector string) {
	b.tb.Helper()
	EvalIn[bool](b, prefix, 5*time.Second, `(() => {
  const el = document.querySelector(`+JSString(selector)+`);
  if (!el) throw new Error("nothing matches " + `+JSString(selector)+`);
  el.click();
  return true;
})()`)
}

// WaitForIn polls a JavaScript expression in the frame at prefix until it
// is true, as WaitFor does in the page; the frame may appear meanwhile.
func (b *Browser) WaitForIn(timeout time.Duration, prefix, description, expr string) {
	b.tb.Helper()
	if ok, err := b.poll(timeout, evaluateIn[bool](prefix, "Promise.resolve("+expr+").then(Boolean)")); !ok {
		b.shootFailure()
		ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
		defer cancel()
		text, _ := chromedp.Run(ctx, evaluateIn[string](prefix, `document.getElementById("main")?.innerText || document.body?.innerText || ""`))
		b.tb.Fatalf("waited %v for %s in the frame at %s (%s), in vain; last error: %v; the frame shows:\n%s%s", timeout, description, prefix, expr, err, text, b.problemList())
	}
}

// FrameOrigins returns the origins of the documents in the frames of b's
// page, at any depth: a frame the browser refused to show holds an error
// page of no origin ("://").
func (b *Browser) FrameOrigins() []string {
	b.tb.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	defer cancel()
	tree, err := chromedp.Run(ctx, chromedp.Action[*page.FrameTree](func(ctx context.Context, tg *chromedp.Target) (*page.FrameTree, error) {
		res, err := cdp.Call(ctx, tg, page.GetFrameTree, cdp.Empty{})
		return res.FrameTree, err
	}))
	if err != nil {
		b.tb.Fatalf("reading the page's frames: %v", err)
	}
	var origins []string
	var walk func(*page.FrameTree)
	walk = func(t *page.FrameTree) {
		for _, c := range t.ChildFrames {
			origins = append(origins, c.Frame.SecurityOrigin)
			walk(c)
		}
	}
	walk(tree)
	return origins
}
