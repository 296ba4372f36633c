package apikey

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"unicode"
)

// maxFile bounds what is read of a key file: a key is a short line, and a
// larger file was named by mistake.
const maxFile = 4 << 10

// A Key is an api-key read from its file; the zero Key is none.
type Key struct{ value string }

// Value is the key itself, for the api-key header and nothing else.
func (k Key) Value() string { return k.value }

// IsZero says no key was read.
func (k Key) IsZero() bool { return k.value == "" }

// String never shows the key.
func (k Key) String() string {
	if k.value == "" {
		return "[none]"
	}
	return "[redacted]"
}

// GoString is String, so that %#v shows no key either.
func (k Key) GoString() string { return k.String() }

// LogValue is String, so that slog shows no key either.
func (k Key) LogValue() slog.Value { return slog.StringValue(k.String()) }

// Read reads the key in the file at path. The errors name the file and
// say what to do; none holds what the file holds.
func Read(path string) (Key, error) {
	f, err := os.Open(path)
	if err != nil {
		// The path is said once: the error's own cause alone.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return Key{}, fmt.Errorf("the api-key file %s cannot be opened (%w): give a file that holds the API's api-key", path, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return Key{}, fmt.Errorf("the api-key file %s: %w", path, err)
	}
	if !info.Mode().IsRegular() {
		return Key{}, fmt.Errorf("the api-key file %s is not a regular file: give a file that holds the API's api-key", path)
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return Key{}, fmt.Errorf("the api-key file %s may be read or written by others (mode %04o, expected 0600): run chmod 600 %s", path, perm, path)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxFile+1))
	if err != nil {
		return Key{}, fmt.Errorf("reading the api-key file %s: %w", path, err)
	}
	if len(b) > maxFile {
		return Key{}, fmt.Errorf("the api-key file %s is larger than %d bytes: it should hold the API's api-key alone", path, maxFile)
	}
	key := strings.TrimSpace(string(b))
	switch {
	case key == "":
		return Key{}, fmt.Errorf("the api-key file %s is empty: write the API's api-key into it", path)
	case strings.ContainsFunc(key, func(r rune) bool { return unicode.IsControl(r) || r > unicode.MaxASCII }):
		return Key{}, fmt.Errorf("the api-key file %s holds more than one line or characters an api-key does not: it should hold the API's api-key alone", path)
	}
	return Key{value: key}, nil
}
