package schema_test

import (
	"fmt"

	"github.com/bulkdesk/bulkdesk/schema"
)

func ExampleAppendCanonical() {
	v, _, _ := schema.DecodeJSON([]byte(`{ "z": "<&>", "a": 1.50, "m": {"y": [true, null], "b": "é\n"} }`))
	b, _ := schema.AppendCanonical(nil, v)
	fmt.Println(string(b))
	// Output: {"a":1.50,"m":{"b":"é\n","y":[true,null]},"z":"<&>"}
}
