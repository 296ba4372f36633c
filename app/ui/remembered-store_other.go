//go:build !js

package ui

import "github.com/bulkdesk/bulkdesk/app/mappingmemory"

// openRememberedMappings keeps the memory of mappings in memory outside
// the browser: in native tests.
func openRememberedMappings() (*mappingmemory.Memory, error) {
	return mappingmemory.New(mappingmemory.NewInMemory()), nil
}
