package receiver_test

import (
	"context"
	"flag"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/receiver"
)

// How "bulkdesk serve" takes the receiver in: flags with environment
// fallbacks, the endpoints on the server's mux, and a shutdown that ends
// the event streams first and closes the events file last.
func Example() {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	var cfg receiver.Config
	cfg.RegisterFlags(fs)
	if err := fs.Parse(os.Args[1:]); err != nil {
		log.Fatal(err)
	}
	if err := cfg.ApplyEnv(fs, os.Getenv); err != nil {
		log.Fatal(err)
	}

	mux := http.NewServeMux()
	srv := &http.Server{Addr: "127.0.0.1:8080", Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	if cfg.Enabled() {
		rcv, err := receiver.New(cfg)
		if err != nil {
			log.Fatal(err)
		}
		rcv.Mount(mux)
		srv.RegisterOnShutdown(rcv.CloseStreams)
		defer rcv.Close() // after Shutdown has returned
	}

	go srv.ListenAndServe()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	srv.Shutdown(ctx)
}
