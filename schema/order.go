package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// A compiled schema keeps its properties in a map, which loses the order
// they are written in. That order is the one operators expect in templates
// and forms (profile, source, destination, amount, …), so it is read once
// from the embedded files themselves.

// written holds the property order of every compiled schema, by the
// location of the schema that holds the properties. Locations are unique
// across Validators: each has its own base URL.
var written sync.Map // string → []string

// recordOrder reads a schema document's property order, once, before it is
// compiled at base.
func recordOrder(data []byte, base string) error {
	order := make(map[string][]string)
	if err := scanOrder(json.NewDecoder(bytes.NewReader(data)), base+"#", order); err != nil {
		return err
	}
	for loc, names := range order {
		written.Store(loc, names)
	}
	return nil
}

// scanOrder reads one JSON value from dec; for every object holding a
// "properties" object it records the property names, in order, under the
// location of the schema that holds them.
func scanOrder(dec *json.Decoder, loc string, order map[string][]string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return err
			}
			key, _ := kt.(string)
			child := loc + "/" + escapeToken(key)
			if key == "properties" {
				if err := scanProperties(dec, loc, child, order); err != nil {
					return err
				}
				continue
			}
			if err := scanOrder(dec, child, order); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if err := scanOrder(dec, loc+"/"+strconv.Itoa(i), order); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	}
	return err
}

func scanProperties(dec *json.Decoder, owner, loc string, order map[string][]string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('{') {
		return errors.New("properties is not an object")
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := kt.(string)
		order[owner] = append(order[owner], key)
		if err := scanOrder(dec, loc+"/"+escapeToken(key), order); err != nil {
			return err
		}
	}
	_, err = dec.Token()
	if err == io.EOF {
		return nil
	}
	return err
}

// writtenOrder returns the names of s's properties in the order the schema
// file writes them.
func writtenOrder(s *jsonschema.Schema) []string {
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	var order []string
	if o, ok := written.Load(s.Location); ok {
		order = o.([]string)
	}
	sort.SliceStable(names, func(i, j int) bool {
		a, b := slices.Index(order, names[i]), slices.Index(order, names[j])
		if a < 0 || b < 0 {
			return a >= 0 || (b < 0 && names[i] < names[j])
		}
		return a < b
	})
	return names
}

func escapeToken(t string) string {
	return strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
}
