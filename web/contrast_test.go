// Package web_test checks the console's stylesheet. The folder itself holds
// static files; the bundle command leaves Go files out.
package web_test

import (
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The colour pairs the stylesheet uses, text over background. Text needs
// 4.5:1 (WCAG 2.1 AA, 1.4.3); focus rings and borders of controls 3:1
// (1.4.11).
var (
	textPairs = [][2]string{
		{"ink", "paper"}, {"ink", "canvas"}, {"ink", "brand-soft"},
		{"muted", "paper"}, {"muted", "canvas"}, {"muted", "brand-soft"},
		{"muted", "error-soft"}, {"muted", "warning-soft"},
		{"on-brand", "brand"}, {"brand", "brand-soft"},
		{"accent", "paper"}, {"on-accent", "accent"},
		{"ok", "paper"}, {"ok", "ok-soft"},
		{"error", "paper"}, {"error", "error-soft"},
		{"warning", "paper"}, {"warning", "warning-soft"},
		{"offline", "offline-soft"},
	}
	uiPairs = [][2]string{
		{"focus", "paper"}, {"focus", "canvas"}, {"focus-on-brand", "brand"},
		{"muted", "paper"}, {"accent", "brand-soft"},
	}
)

func TestColoursPassWCAGAA(t *testing.T) {
	css, err := os.ReadFile("console.css")
	if err != nil {
		t.Fatal(err)
	}
	// The light palette is :root's; the dark one, a host page's choice
	// when it embeds the console, overrides every colour of it.
	text := string(css)
	darkAt := strings.Index(text, `html[data-theme="dark"] {`)
	if darkAt < 0 {
		t.Fatal(`console.css has no dark palette (html[data-theme="dark"])`)
	}
	dark := text[darkAt : darkAt+strings.Index(text[darkAt:], "}")]
	light := text[:darkAt]
	for _, palette := range []struct{ name, css string }{{"light", light}, {"dark", dark}} {
		colours := paletteOf(palette.css)
		check := func(pairs [][2]string, least float64) {
			for _, p := range pairs {
				fg, ok1 := colours[p[0]]
				bg, ok2 := colours[p[1]]
				if !ok1 || !ok2 {
					t.Errorf("%s palette: console.css defines no --%s or --%s", palette.name, p[0], p[1])
					continue
				}
				if r := contrast(fg, bg); r < least {
					t.Errorf("%s palette: --%s on --%s: contrast %.2f:1, want at least %.1f:1", palette.name, p[0], p[1], r, least)
				}
			}
		}
		check(textPairs, 4.5)
		check(uiPairs, 3)
	}
}

// paletteOf reads the colours a block of the stylesheet defines.
func paletteOf(css string) map[string][3]float64 {
	colours := make(map[string][3]float64)
	for _, m := range regexp.MustCompile(`--([a-z-]+):\s*#([0-9a-fA-F]{6});`).FindAllStringSubmatch(css, -1) {
		var rgb [3]float64
		for i := range 3 {
			v, _ := strconv.ParseUint(m[2][2*i:2*i+2], 16, 8)
			rgb[i] = float64(v)
		}
		colours[m[1]] = rgb
	}
	return colours
}

// contrast is the WCAG contrast ratio of two sRGB colours.
func contrast(a, b [3]float64) float64 {
	la, lb := luminance(a), luminance(b)
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

func luminance(c [3]float64) float64 {
	var l [3]float64
	for i, v := range c {
		v /= 255
		if v <= 0.04045 {
			l[i] = v / 12.92
		} else {
			l[i] = math.Pow((v+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
}

func TestContrastFormula(t *testing.T) {
	black, white := [3]float64{0, 0, 0}, [3]float64{255, 255, 255}
	if r := contrast(black, white); math.Abs(r-21) > 0.01 {
		t.Errorf("black on white = %.2f, want 21", r)
	}
	if r := contrast(white, white); r != 1 {
		t.Errorf("white on white = %.2f, want 1", r)
	}
}
