package receiver

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// idName is the file, inside the events directory, that holds the
// receiver's id.
const idName = "receiver-id"

// idHeader names the receiver's id on the GET /events answer; the stream
// names it in its hello message.
const idHeader = "Bulkdesk-Receiver"

// receiverID returns the id of one numbering of events. Sequence numbers
// alone cannot tell a console that its receiver started over: after a
// restart without an events directory, event 3 is another event than the
// event 3 the console already shows. The id changes whenever numbering
// starts again from 1 (fresh), and is kept in dir, when there is one, so
// that it lives as long as the numbering does.
func receiverID(dir string, fresh bool) (string, error) {
	path := filepath.Join(dir, idName)
	if dir != "" && !fresh {
		b, err := os.ReadFile(path)
		switch {
		case err == nil && validID(string(b)):
			return string(b), nil
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return "", fmt.Errorf("reading the receiver's id: %w", err)
		}
		// Missing or damaged: a new id makes consoles reload, which is safe.
	}
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("making the receiver's id: %w", err)
	}
	id := hex.EncodeToString(b)
	if dir != "" {
		if err := os.WriteFile(path, []byte(id), 0o600); err != nil {
			return "", fmt.Errorf("storing the receiver's id: %w", err)
		}
	}
	return id, nil
}

func validID(s string) bool {
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == 8
}
