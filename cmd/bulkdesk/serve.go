package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/server"
)

// The environment variables of "bulkdesk serve", one per flag; a flag
// given on the command line wins.
const (
	envAddr           = "BULKDESK_ADDR"
	envPrefix         = "BULKDESK_PREFIX"
	envFrameAncestors = "BULKDESK_FRAME_ANCESTORS"
)

// serveConfig is what "bulkdesk serve" was asked to do.
type serveConfig struct {
	addr    string
	options server.Options
}

// runServe implements "bulkdesk serve": serve the console until
// interrupted.
func runServe(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	cfg, err := parseServe(args, os.Getenv, stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, "bulkdesk serve:", err)
		}
		return exitUsage
	}
	ctx, stop := interrupted()
	defer stop()
	err = serveConsole(ctx, cfg, func(url string) {
		fmt.Fprintf(stdout, "Bulkdesk console on %s (Ctrl-C stops it)\n", url)
	})
	if err != nil {
		fmt.Fprintln(stderr, "bulkdesk serve:", err)
		return exitUsage
	}
	return exitOK
}

// parseServe reads the flags, with defaults from the environment.
func parseServe(args []string, getenv func(string) string, stderr io.Writer) (serveConfig, error) {
	or := func(env, def string) string {
		if v := getenv(env); v != "" {
			return v
		}
		return def
	}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", or(envAddr, "127.0.0.1:8080"), "host:port to listen on (env "+envAddr+")")
	prefix := fs.String("prefix", or(envPrefix, "/"), "path the console is served under, e.g. /console/ behind a reverse proxy (env "+envPrefix+")")
	frame := fs.String("frame-ancestors", or(envFrameAncestors, ""), "origins allowed to embed the console in a frame, separated by spaces or commas; default: its own origin only (env "+envFrameAncestors+")")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: bulkdesk serve [-addr HOST:PORT] [-prefix PATH] [-frame-ancestors ORIGINS]")
		fmt.Fprintln(stderr, "\nServes the browser console; the WebAssembly and every asset are built into this binary.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return serveConfig{}, err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return serveConfig{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return serveConfig{
		addr: *addr,
		options: server.Options{
			Prefix:         *prefix,
			FrameAncestors: server.ParseSources(*frame),
		},
	}, nil
}

// serveConsole runs the server until ctx is done; ready receives the
// console's URL once it listens.
func serveConsole(ctx context.Context, cfg serveConfig, ready func(url string)) error {
	s, err := server.New(cfg.options)
	if err != nil {
		return err
	}
	// Other handlers mount here, below the prefix, before serving:
	// s.Handle("api/", proxyHandler), rec.Mount(s.Mux()), ….

	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	ready("http://" + ln.Addr().String() + s.Prefix())
	return serve(ctx, ln, s)
}
