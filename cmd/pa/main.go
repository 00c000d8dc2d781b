// Command pa records dispatches of agents under the fail-safe spawn-log lock
// (spec: spawn-log-lock.md). Run `pa --help`.
package main

import (
	"context"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	go func() {
		// The first Ctrl-C ends the wait cleanly; restore the default so
		// that a second one kills pa whatever it is doing.
		<-ctx.Done()
		stop()
	}()
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
