//go:build linux

package watch

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestWakeSentWhileWaitTakesTheLock: a wake dispatched after a Wait found
// its channel empty but before it took the hub's lock (the reader's
// dispatch holds that lock) is taken by that Wait, not left in the channel
// while the Wait becomes the reader and blocks for its whole duration. The
// test sends the wake at exactly that point (the beforeHubLock seam), for
// a file marked gone, so the Wait must return woken at once, not after its
// 20 s. (TestWatchesWaitTogether finds the same lost wake-up only now and
// then.)
func TestWakeSentWhileWaitTakesTheLock(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	vw, err := folder(dir).WatchRemoval("a")
	if err != nil {
		t.Skipf("no watch: %v", err)
	}
	defer vw.Close()
	w := vw.(*inotifyWatch)
	w.gone.Store(true) // the wake is for a file that left its name

	sentOnce := false
	beforeHubLock = func(x *inotifyWatch) {
		if x == w && !sentOnce {
			sentOnce = true
			w.signal()
		}
	}
	defer func() { beforeHubLock = func(*inotifyWatch) {} }()
	type result struct {
		woken bool
		err   error
	}
	done := make(chan result, 1)
	start := time.Now()
	go func() {
		woken, err := w.Wait(context.Background(), 20*time.Second)
		done <- result{woken, err}
	}()
	select {
	case r := <-done:
		if !r.woken || r.err != nil || !sentOnce {
			t.Fatalf("Wait = %v, %v (wake sent: %v); want woken", r.woken, r.err, sentOnce)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("Wait returned after %v; want at once", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the Wait missed a wake sent while it took the hub's lock: it read the instance instead")
	}
}
