// Command bundle prepares the console for embedding: it copies the files of
// web/ and the built WebAssembly into the console's dist/ folder under
// content-hashed names, adds gzip and brotli variants of what compresses,
// and writes the manifest the server reads (see package console).
//
// Usage:
//
//	go run ./cmd/bulkdesk/internal/console/bundle -web web -wasm build/wasm -out cmd/bulkdesk/internal/console/dist
//
// Brotli at its best setting takes seconds per megabyte, so compressed
// variants are kept between runs: their names carry the content's hash,
// and one already in dist/ is reused.
package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/console"
)

func main() {
	web := flag.String("web", "web", "folder of static files")
	wasm := flag.String("wasm", "build/wasm", "folder of the built .wasm files")
	out := flag.String("out", "cmd/bulkdesk/internal/console/dist", "bundle folder to write")
	flag.Parse()
	m, err := bundle(*out, *web, *wasm)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bundle:", err)
		os.Exit(1)
	}
	for _, f := range m.Files {
		fmt.Printf("%-16s %9d bytes  gzip %9d  brotli %9d  %s\n", f.Name, f.Size, f.Gzip, f.Brotli, f.Path)
	}
	fmt.Println("version", m.Version)
}

// hashLen is how many hex digits of a file's SHA-256 its bundled name holds.
const hashLen = 10

// compressible lists the extensions worth compressing; images are
// compressed already.
var compressible = []string{".wasm", ".js", ".css", ".svg", ".json", ".txt", ".html", ".webmanifest"}

// bundle writes the bundle of the files in dirs to out and returns its
// manifest. Files of out that the new bundle does not use are removed,
// except README.md.
func bundle(out string, dirs ...string) (*console.Manifest, error) {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	var sources []string
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", dir, err)
		}
		for _, e := range entries {
			// Go files in web/ are its tests, not assets; its folders
			// (web/docs: the README's pictures) are not served either.
			if e.IsDir() || strings.HasSuffix(e.Name(), ".go") || strings.HasPrefix(e.Name(), ".") {
				continue
			}
			sources = append(sources, filepath.Join(dir, e.Name()))
		}
	}

	m := &console.Manifest{Files: make([]console.File, len(sources))}
	errs := make([]error, len(sources))
	var wg sync.WaitGroup
	// One file at a time per core: brotli is the slow part.
	sem := make(chan struct{}, 2)
	for i, src := range sources {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			m.Files[i], errs[i] = bundleFile(out, src)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	slices.SortFunc(m.Files, func(a, b console.File) int { return strings.Compare(a.Name, b.Name) })
	for i := 1; i < len(m.Files); i++ {
		if m.Files[i].Name == m.Files[i-1].Name {
			return nil, fmt.Errorf("two files are named %s", m.Files[i].Name)
		}
	}

	version := sha256.New()
	for _, f := range m.Files {
		fmt.Fprintf(version, "%s %s\n", f.Name, f.SHA256)
	}
	m.Version = hex.EncodeToString(version.Sum(nil))[:16]

	manifest, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(out, console.ManifestName), append(manifest, '\n'), 0o644); err != nil {
		return nil, err
	}
	return m, removeStale(out, m)
}

// bundleFile copies one file into the bundle with its variants.
func bundleFile(out, src string) (console.File, error) {
	data, err := os.ReadFile(src)
	if err != nil {
		return console.File{}, err
	}
	sum := sha256.Sum256(data)
	name := filepath.Base(src)
	ext := filepath.Ext(name)
	f := console.File{
		Name:   name,
		Path:   strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:])[:hashLen] + ext,
		Size:   int64(len(data)),
		SHA256: hex.EncodeToString(sum[:]),
	}
	if err := os.WriteFile(filepath.Join(out, f.Path), data, 0o644); err != nil {
		return f, err
	}
	if !slices.Contains(compressible, ext) {
		return f, nil
	}
	if f.Gzip, err = variant(filepath.Join(out, f.Path+".gz"), data, gzipBytes); err != nil {
		return f, err
	}
	if f.Brotli, err = variant(filepath.Join(out, f.Path+".br"), data, brotliBytes); err != nil {
		return f, err
	}
	return f, nil
}

// variant writes the compressed form of data to path, or reuses the one
// already there, and returns its length; 0 when it saves less than a tenth.
func variant(path string, data []byte, compress func([]byte) ([]byte, error)) (int64, error) {
	if st, err := os.Stat(path); err == nil && st.Size() > 0 {
		return st.Size(), nil
	}
	c, err := compress(data)
	if err != nil {
		return 0, fmt.Errorf("compressing %s: %w", path, err)
	}
	if len(c) > len(data)*9/10 {
		return 0, nil
	}
	// Write then rename, so that an interrupted run leaves no truncated
	// variant for the next run to reuse.
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, c, 0o644); err != nil {
		return 0, err
	}
	return int64(len(c)), os.Rename(tmp, path)
}

func gzipBytes(data []byte) ([]byte, error) {
	var b bytes.Buffer
	w, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	return finish(&b, w, data)
}

func brotliBytes(data []byte) ([]byte, error) {
	var b bytes.Buffer
	w := brotli.NewWriterOptions(&b, brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: 24})
	return finish(&b, w, data)
}

func finish(b *bytes.Buffer, w io.WriteCloser, data []byte) ([]byte, error) {
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// removeStale deletes the files of out that m does not list.
func removeStale(out string, m *console.Manifest) error {
	keep := map[string]bool{console.ManifestName: true, "README.md": true}
	for _, f := range m.Files {
		keep[f.Path] = true
		if f.Gzip > 0 {
			keep[f.Path+".gz"] = true
		}
		if f.Brotli > 0 {
			keep[f.Path+".br"] = true
		}
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !keep[e.Name()] {
			if err := os.Remove(filepath.Join(out, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}
