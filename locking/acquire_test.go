package locking_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// Bad input changes nothing: a name that is not a valid slash path (NUL, a
// leading slash, dot-dot) is refused before any file is touched.
func TestInvalidNameRefused(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		for _, name := range []string{"", ".", "/abs", "../x", "d/../../x", "d/a\x00b", "d//x", "d/x/"} {
			err := locking.Update(context.Background(), e.fsys, name, appendRecord("a"), fast(nil))
			if err == nil {
				t.Fatalf("Update(%q) succeeded", name)
			}
			if _, err := locking.Acquire(context.Background(), e.fsys, name, fast(nil)); err == nil {
				t.Fatalf("Acquire(%q) succeeded", name)
			}
		}
		if got := e.ls(t); len(got) != 0 {
			t.Fatalf("folder holds %q after refused names", got)
		}
	})
}

// A cancelled context ends a wait at once with the context's error.
func TestAcquireHonoursContext(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		pid := locktest.LivePID(t)
		e.writeRaw(t, lockP, lockJSON(pid, hostname(t), true, "00112233445566778899aabb", time.Now()))
		ctx, cancel := context.WithCancel(context.Background())
		opts := fast(nil)
		opts.Timeout = time.Minute
		opts.PollInterval = 5 * time.Millisecond
		done := make(chan error)
		go func() { done <- locking.Update(ctx, e.fsys, target, appendRecord("a"), opts) }()
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	})
}
