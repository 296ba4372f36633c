// Package console holds the built browser console that bulkdesk serve
// embeds, and the format of its manifest.
//
// The console is built in two steps (see the Makefile): the Go compiler
// makes the page's and the worker's WebAssembly, then the bundle command
// (./bundle) copies them with the files of web/ into dist/ under
// content-hashed names, with gzip and brotli variants and a manifest. The
// binary embeds dist/, so it needs no file beside it.
package console

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// FS returns the embedded bundle.
func FS() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // "dist" is a valid path: cannot happen
	}
	return sub
}

// ManifestName is the manifest's file name in a bundle.
const ManifestName = "manifest.json"

// A Manifest lists the files of a bundle.
type Manifest struct {
	// Version is a hash of every file's content: it changes when any file
	// does, and names the build for caches and go-app's update check.
	Version string `json:"version"`
	Files   []File `json:"files"`
}

// A File is one file of a bundle.
type File struct {
	// Name is the file's name in web/ or the wasm build ("app.wasm").
	Name string `json:"name"`
	// Path is its content-hashed name in the bundle ("app.3f9a1c2d7e.wasm").
	Path string `json:"path"`
	// Size is its length; SHA256 its hex digest.
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	// Brotli and Gzip are the lengths of Path+".br" and Path+".gz", or 0
	// when compression would not pay.
	Brotli int64 `json:"brotli,omitempty"`
	Gzip   int64 `json:"gzip,omitempty"`
}

// ErrNotBuilt is returned for a bundle without a manifest.
var ErrNotBuilt = errors.New("the console is not built: run \"make build\" (it compiles the WebAssembly and bundles it before the server)")

// ReadManifest reads a bundle's manifest and checks that every file it
// lists is there.
func ReadManifest(fsys fs.FS) (*Manifest, error) {
	b, err := fs.ReadFile(fsys, ManifestName)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotBuilt
	}
	if err != nil {
		return nil, fmt.Errorf("reading the console's manifest: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("reading the console's manifest: %w", err)
	}
	for _, f := range m.Files {
		paths := []string{f.Path}
		if f.Brotli > 0 {
			paths = append(paths, f.Path+".br")
		}
		if f.Gzip > 0 {
			paths = append(paths, f.Path+".gz")
		}
		for _, p := range paths {
			if _, err := fs.Stat(fsys, p); err != nil {
				return nil, fmt.Errorf("the console's manifest lists %s: %w", p, err)
			}
		}
	}
	return &m, nil
}

// Lookup returns the file with the given name.
func (m *Manifest) Lookup(name string) (File, bool) {
	for _, f := range m.Files {
		if f.Name == name {
			return f, true
		}
	}
	return File{}, false
}
