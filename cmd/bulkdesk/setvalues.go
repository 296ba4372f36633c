package main

import (
	"fmt"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
)

// setValuesFlag is -set FIELD=VALUE, repeatable: a field the file has no
// column for gets one value for every row, read as a cell of that field
// would be. FIELD is the field's path (profileId, source.type). A value
// given here wins over the mapping file's; an empty one removes it.
type setValuesFlag struct {
	fields []string
	values map[string]string
}

func (s *setValuesFlag) String() string {
	if s == nil {
		return ""
	}
	parts := make([]string, len(s.fields))
	for i, f := range s.fields {
		parts[i] = f + "=" + s.values[f]
	}
	return strings.Join(parts, ",")
}

func (s *setValuesFlag) Set(arg string) error {
	field, value, ok := strings.Cut(arg, "=")
	field = strings.TrimSpace(field)
	if !ok || field == "" {
		return fmt.Errorf("%q: write FIELD=VALUE, such as profileId=110321", arg)
	}
	if _, dup := s.values[field]; dup {
		return fmt.Errorf("%q: %s is already given a value", arg, field)
	}
	if s.values == nil {
		s.values = make(map[string]string)
	}
	s.fields = append(s.fields, field)
	s.values[field] = value
	return nil
}

// apply gives the import's mapping the values, after its columns are
// mapped (by header or by a mapping file): a field the kind lacks, or one
// a column fills, is refused, named.
func (s *setValuesFlag) apply(im *ingest.Import) error {
	if len(s.fields) == 0 {
		return nil
	}
	m := im.Mapping()
	for _, f := range s.fields {
		m.SetValue(f, s.values[f])
	}
	if err := im.SetMapping(m); err != nil {
		return lang.Errorf("-set: %s", err)
	}
	return nil
}
