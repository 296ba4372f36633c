//go:build !js

package browsertest

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// DropFiles is an action that drags files from outside the page and drops
// them on the middle of the element a CSS selector finds, as a person does
// from a file manager: dragenter, dragover, then drop.
func DropFiles(selector string, files ...string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		at, err := chromedp.Evaluate[[]float64](`(() => {
  const el = document.querySelector(`+JSString(selector)+`);
  if (!el) return null;
  el.scrollIntoView({block: "center"});
  const r = el.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
})()`)(ctx, t)
		if err != nil {
			return err
		}
		if len(at) != 2 {
			return fmt.Errorf("no element %s to drop files on", selector)
		}
		data := &input.DragData{Items: []*input.DragDataItem{}, Files: files, DragOperationsMask: 1}
		for _, typ := range []input.DispatchDragEventType{input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver, input.DispatchDragEventTypeDrop} {
			if _, err := cdp.Call(ctx, t, input.DispatchDragEvent, input.DispatchDragEventParams{Type: typ, X: at[0], Y: at[1], Data: data}); err != nil {
				return fmt.Errorf("%s on %s: %w", typ, selector, err)
			}
		}
		return nil
	})
}

// ActiveElement is a JavaScript expression describing the element that has
// the keyboard focus: its id, or its tag and text.
const ActiveElement = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return "body";
  if (el.id) return "#" + el.id;
  return el.tagName.toLowerCase() + ":" + el.textContent.trim();
})()`
