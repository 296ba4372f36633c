package wire

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ReviewElements travel from the worker to the page as one binary
// message: decoding 10,000 elements' strings as JSON costs the page tens
// of milliseconds and, in its larger heap, a collection now and then;
// cutting a column's text at its separators costs almost nothing. The
// layout is a 4-byte big-endian length, the header (JSON: the kind's
// facts, the problems, and each column's name and length in bytes), then
// each column's values joined by a NUL byte, a NUL inside a value being
// written as U+FFFD: the values are shown and searched, never sent on.

// elementsHeader is the JSON head of the binary layout: the elements
// without their columns, and where each column lies.
type elementsHeader struct {
	ReviewElements
	Columns []elementsColumn `json:"columns"`
}

type elementsColumn struct {
	Name  string `json:"name"`
	Bytes int    `json:"bytes"`
}

// columns are the columns of e by name, in the order they are written.
func (e *ReviewElements) columns() []struct {
	name string
	col  *[]string
} {
	return []struct {
		name string
		col  *[]string
	}{
		{"type", &e.Type}, {"id", &e.ID}, {"name", &e.Name}, {"email", &e.Email}, {"iban", &e.IBAN},
		{"accountNumber", &e.AccountNumber}, {"sortCode", &e.SortCode}, {"account", &e.Account}, {"bic", &e.BIC},
		{"currency", &e.Currency}, {"amount", &e.Amount}, {"reference", &e.Reference}, {"source", &e.Source},
	}
}

// MarshalBinary writes e in the binary layout.
func (e *ReviewElements) MarshalBinary() ([]byte, error) {
	h := elementsHeader{ReviewElements: *e}
	for _, c := range h.columns() {
		*c.col = nil
	}
	var body strings.Builder
	for _, c := range e.columns() {
		if *c.col == nil {
			continue
		}
		if len(*c.col) != e.Count {
			return nil, fmt.Errorf("the %s column holds %d values for %d elements", c.name, len(*c.col), e.Count)
		}
		start := body.Len()
		for i, v := range *c.col {
			if i > 0 {
				body.WriteByte(0)
			}
			body.WriteString(strings.ReplaceAll(v, "\x00", "\uFFFD"))
		}
		h.Columns = append(h.Columns, elementsColumn{Name: c.name, Bytes: body.Len() - start})
	}
	head, err := json.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("writing the elements' header: %w", err)
	}
	out := make([]byte, 4, 4+len(head)+body.Len())
	binary.BigEndian.PutUint32(out, uint32(len(head)))
	return append(append(out, head...), body.String()...), nil
}

// UnmarshalBinary reads the binary layout into e.
func (e *ReviewElements) UnmarshalBinary(data []byte) error {
	if len(data) < 4 {
		return errors.New("the elements are cut short")
	}
	n := binary.BigEndian.Uint32(data)
	if uint64(n) > uint64(len(data)-4) {
		return errors.New("the elements' header is cut short")
	}
	var h elementsHeader
	if err := json.Unmarshal(data[4:4+n], &h); err != nil {
		return fmt.Errorf("reading the elements' header: %w", err)
	}
	*e = h.ReviewElements
	byName := make(map[string]*[]string)
	for _, c := range e.columns() {
		byName[c.name] = c.col
	}
	// One string for every column: each value is a part of it.
	rest := string(data[4+n:])
	for _, c := range h.Columns {
		col, ok := byName[c.Name]
		switch {
		case !ok:
			return fmt.Errorf("the elements hold an unknown column %q", c.Name)
		case c.Bytes < 0 || c.Bytes > len(rest):
			return fmt.Errorf("the %s column is cut short", c.Name)
		}
		values := strings.Split(rest[:c.Bytes], "\x00")
		if len(values) != h.Count {
			return fmt.Errorf("the %s column holds %d values for %d elements", c.Name, len(values), h.Count)
		}
		*col, rest = values, rest[c.Bytes:]
	}
	if rest != "" {
		return fmt.Errorf("the elements hold %d bytes beyond their columns", len(rest))
	}
	return nil
}
