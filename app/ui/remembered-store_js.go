package ui

import (
	"context"
	"syscall/js"
	"time"

	"github.com/bulkdesk/bulkdesk/app/mappingmemory"
)

// openRememberedMappings opens the page's memory of mappings in the
// browser's IndexedDB, kept per console origin and browser profile.
func openRememberedMappings() (*mappingmemory.Memory, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	records, err := mappingmemory.OpenIndexedDB(ctx, js.Global().Get("indexedDB"), rememberedMappingsName)
	if err != nil {
		return nil, err
	}
	return mappingmemory.New(records), nil
}
