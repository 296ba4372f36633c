package contract

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// WriteDir writes each schema to dir/<kind>.json (creating dir), and
// removes nothing else. Each file is written under a temporary name and
// renamed, so a reader never sees half a schema.
func (c *Contract) WriteDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, s := range c.Schemas {
		if s.Kind == "" || s.Kind == "." || s.Kind == ".." || strings.ContainsAny(s.Kind, `/\`) {
			return fmt.Errorf("contract: kind %q cannot name a file", s.Kind)
		}
		name := filepath.Join(dir, s.Kind+".json")
		tmp, err := os.CreateTemp(dir, "."+s.Kind+".json.*")
		if err != nil {
			return err
		}
		_, err = tmp.Write(s.JSON)
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Chmod(tmp.Name(), 0o644)
		}
		if err == nil {
			err = os.Rename(tmp.Name(), name)
		}
		if err != nil {
			os.Remove(tmp.Name())
			return err
		}
	}
	return nil
}
