package help

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Compiled on first use rather than as the console's page starts, which
// they would hold up on every page.
var (
	heading = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^## (.+?) \{#([a-z][a-z0-9-]*)\}$`) })
	step    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d+\. `) })
)

// Parse reads a guide written in the part of Markdown the package
// describes. A line it cannot place (another heading level, a heading
// without its id, a mark left open) is an error naming the line, so that
// a slip in a translation fails its test rather than showing on the page.
func Parse(text string) (Guide, error) {
	var (
		g    Guide
		ids  = map[string]bool{}
		open *Block   // the block being read, until a blank line
		item []string // the lines of its last item
	)
	blocks := func() *[]Block {
		if n := len(g.Sections); n > 0 {
			return &g.Sections[n-1].Blocks
		}
		return &g.Intro
	}
	var failed error
	closeItem := func(line int) {
		if open == nil || item == nil {
			return
		}
		t, err := spans(strings.Join(item, " "))
		if err != nil && failed == nil {
			failed = fmt.Errorf("line %d: %w", line, err)
		}
		open.Items = append(open.Items, t)
		item = nil
	}
	closeBlock := func(line int) {
		closeItem(line)
		if open != nil {
			*blocks() = append(*blocks(), *open)
			open = nil
		}
	}
	for i, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		n := i + 1
		line = strings.TrimRight(line, " \t")
		kind, rest := lineKind(line)
		switch {
		case line == "":
			closeBlock(n)
		case strings.HasPrefix(line, "#"):
			closeBlock(n)
			m := heading().FindStringSubmatch(line)
			if m == nil {
				return Guide{}, fmt.Errorf("line %d: a heading is written \"## Title {#id}\"", n)
			}
			if ids[m[2]] {
				return Guide{}, fmt.Errorf("line %d: a second section %q", n, m[2])
			}
			ids[m[2]] = true
			g.Sections = append(g.Sections, Section{ID: m[2], Title: m[1]})
		case open != nil && kind != Paragraph && open.Kind == kind:
			closeItem(n)
			item = []string{rest}
		case open != nil && kind == Paragraph:
			// A paragraph's next line, or an item's.
			item = append(item, strings.TrimSpace(line))
		default:
			// A paragraph, a list or steps starting, right after another
			// block without a blank line between them if need be.
			closeBlock(n)
			open = &Block{Kind: kind}
			item = []string{rest}
		}
		if failed != nil {
			return Guide{}, failed
		}
	}
	closeBlock(0)
	if failed != nil {
		return Guide{}, failed
	}
	return g, nil
}

// lineKind says whether line starts an item of a list or of steps, and
// returns its text without the marker.
func lineKind(line string) (BlockKind, string) {
	if rest, ok := strings.CutPrefix(line, "- "); ok {
		return List, rest
	}
	if m := step().FindString(line); m != "" {
		return Steps, line[len(m):]
	}
	return Paragraph, line
}

// spans reads the marks of a paragraph or an item: **a label** and
// `code`; code holds no label.
func spans(s string) (Text, error) {
	var out Text
	for s != "" {
		i := strings.IndexAny(s, "*`")
		if i < 0 {
			out = append(out, Span{Text: s})
			break
		}
		if i > 0 {
			out = append(out, Span{Text: s[:i]})
		}
		s = s[i:]
		mark, code := "**", false
		if s[0] == '`' {
			mark, code = "`", true
		} else if !strings.HasPrefix(s, "**") {
			return nil, fmt.Errorf("a lone * in %q: a label is written **so**", s)
		}
		end := strings.Index(s[len(mark):], mark)
		if end <= 0 {
			return nil, fmt.Errorf("%s opened and not closed, or empty, in %q", mark, s)
		}
		text := s[len(mark) : len(mark)+end]
		if !code && strings.ContainsAny(text, "*`") {
			return nil, fmt.Errorf("marks inside the label %q", text)
		}
		out = append(out, Span{Text: text, Label: !code, Code: code})
		s = s[len(mark)+end+len(mark):]
	}
	return out, nil
}
