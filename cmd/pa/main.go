// Command pa records dispatches of agents under the fail-safe spawn-log lock
// (spec: spawn-log-lock.md). Run `pa --help`.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// stopSignals end pa's wait for a held lock cleanly, as Ctrl-C does: a
// SIGTERM (kill, a service manager, a CI runner's timeout) too, so that an
// open stopped while it waits exits 2 and leaves no pending file beside the
// lock.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	go func() {
		// The first signal ends the wait cleanly; restore the default so
		// that a second one kills pa whatever it is doing.
		<-ctx.Done()
		stop()
	}()
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
