package webhook

import (
	"errors"
	"fmt"
	"strconv"
	"time"
)

// ParseTimestamp reads a published-timestamp header value: a whole number
// of milliseconds since the Unix epoch, in decimal digits and nothing else
// (no sign, spaces, decimal point or exponent). Leading zeros are allowed,
// since the signature covers the text as sent.
func ParseTimestamp(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, errors.New("the value is empty")
	}
	n := 0
	for _, r := range s {
		n++
		if r < '0' || r > '9' {
			return time.Time{}, fmt.Errorf("%q is not a whole number of milliseconds: character %d is %q", clip(s, 40), n, r)
		}
	}
	ms, err := strconv.ParseInt(s, 10, 64)
	if err != nil || ms > maxMillis {
		return time.Time{}, fmt.Errorf("%q is too large to be a time in milliseconds", clip(s, 40))
	}
	return time.UnixMilli(ms).UTC(), nil
}

// maxMillis keeps parsed times inside the range time.Duration arithmetic
// handles: the year 2262.
const maxMillis = int64(1<<63-1) / int64(time.Millisecond)

// clip shortens s to at most n characters for a message, marking the cut.
func clip(s string, n int) string {
	i := 0
	for at := range s {
		if i == n {
			return s[:at] + "…"
		}
		i++
	}
	return s
}
