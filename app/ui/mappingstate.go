package ui

import "github.com/bulkdesk/bulkdesk/app/wire"

// The mapping step shows each column of the file with the field it fills
// and how that was decided; the operator changes fields one column at a
// time. These helpers hold that logic, apart from rendering.

// columnStatus says how a column is mapped, in words and as a CSS tone:
// matched by its header, chosen by the operator, suggested, or not
// imported.
func columnStatus(c wire.ColumnView) (label, tone string) {
	switch {
	case c.Match == wire.MatchExact || c.Match == wire.MatchAlias:
		return t("Matched"), "ok"
	case c.Match == wire.MatchManual:
		return t("Chosen"), "ok"
	case c.Match == wire.MatchIgnored:
		return t("Left out by design"), "muted"
	case len(c.Suggestions) > 0:
		return tf("Suggestion: %s", c.Suggestions[0]), "warn"
	case len(c.Samples) == 0:
		return t("Empty, not imported"), "muted"
	}
	return t("Not imported"), "warn"
}

// A pendingMapping holds the fields the operator chose for columns and
// the worker has not applied yet. Choices wait while two columns would
// fill one field, rather than taking the field from the other column: a
// keyboard user going through a menu with the arrow keys passes over
// fields other columns fill, and must not unmap them on the way.
type pendingMapping map[int]string

// field returns the field column c fills, pending choices included.
func (m pendingMapping) field(c wire.ColumnView) string {
	if f, ok := m[c.Column]; ok {
		return f
	}
	return c.Field
}

// conflicts returns, for each field more than one column would fill, the
// letters of those columns.
func (m pendingMapping) conflicts(columns []wire.ColumnView) map[string][]string {
	by := make(map[string][]string)
	for _, c := range columns {
		if f := m.field(c); f != "" {
			by[f] = append(by[f], c.Letter)
		}
	}
	for f, letters := range by {
		if len(letters) < 2 {
			delete(by, f)
		}
	}
	return by
}

// choices returns the pending choices to send, in column order.
func (m pendingMapping) choices(columns []wire.ColumnView) []wire.ColumnChoice {
	var out []wire.ColumnChoice
	for _, c := range columns {
		if f, ok := m[c.Column]; ok && f != c.Field {
			out = append(out, wire.ColumnChoice{Column: c.Column, Field: f})
		}
	}
	return out
}

// mappingCounts sums up a mapping for its heading: how many columns are
// matched automatically, chosen, and not imported though they hold values.
func mappingCounts(columns []wire.ColumnView) (matched, chosen, unmapped int) {
	for _, c := range columns {
		switch {
		case c.Match == wire.MatchExact || c.Match == wire.MatchAlias:
			matched++
		case c.Match == wire.MatchManual:
			chosen++
		case c.Field == "" && c.Match != wire.MatchIgnored && len(c.Samples) > 0:
			unmapped++
		}
	}
	return matched, chosen, unmapped
}

// mappingSummary is the one-line account of a mapping.
func mappingSummary(columns []wire.ColumnView) string {
	matched, chosen, unmapped := mappingCounts(columns)
	switch {
	case chosen > 0 && unmapped > 0:
		return tf("%s matched by their headers, %s chosen, %s with values not imported.", plural(matched, "column", "columns"), count(chosen), count(unmapped))
	case chosen > 0:
		return tf("%s matched by their headers, %s chosen.", plural(matched, "column", "columns"), count(chosen))
	case unmapped > 0:
		return tf("%s matched by their headers, %s with values not imported.", plural(matched, "column", "columns"), count(unmapped))
	}
	return tf("%s matched by their headers.", plural(matched, "column", "columns"))
}

// targetLabel is a field as the mapping's menus list it: its name in the
// operator's language first, its path second, "Betrag — destinationAmount.amount".
func targetLabel(tg wire.Target) string {
	label := tg.Path
	if tg.Title != "" && tg.Title != tg.Path {
		label = t(tg.Title) + " — " + tg.Path
	}
	if tg.Required {
		return tf("%s (required)", label)
	}
	return label
}
