package sandbox

import (
	"bytes"
	"fmt"
)

// SampleTransfers returns a valid request body of n transfers between
// made-up instruments, for rehearsals, tests and benchmarks. Every element
// differs (its tag and amount), and the elements whose 0-based index is in
// fail carry the sandbox's fail marker, so their operations fail.
func SampleTransfers(n int, fail ...int) []byte {
	failing := make(map[int]bool, len(fail))
	for _, i := range fail {
		failing[i] = true
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		desc := fmt.Sprintf("Invoice %d", i+1)
		if failing[i] {
			desc += " " + failMarker
		}
		fmt.Fprintf(&b, `{"pathParams":{},"requestBody":{"profileId":"110321","tag":"sample-%d","source":{"type":"managed_accounts","id":"1099%06d"},"destination":{"type":"managed_cards","id":"2088%06d"},"destinationAmount":{"currency":"EUR","amount":%d},"description":%q}}`,
			i+1, i%1000, i, 100+i, desc)
	}
	b.WriteByte(']')
	return b.Bytes()
}
