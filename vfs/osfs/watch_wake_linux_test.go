//go:build linux

package osfs

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
// test holds the hub's lock, lets the Wait reach it, signals the watch as
// the dispatch does under the lock, and lets go: the Wait must return
// woken at once, not after its 20 s. (TestWatchesWaitTogether finds the
// same lost wake-up only now and then.)
func TestWakeSentWhileWaitTakesTheLock(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	fsys, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.Close()
	vw, err := fsys.WatchRemoval("a")
	if err != nil {
		t.Skipf("no watch: %v", err)
	}
	defer vw.Close()
	w := vw.(*inotifyWatch)

	theHub.mu.Lock()
	type result struct {
		woken bool
		err   error
		at    time.Time
	}
	done := make(chan result, 1)
	go func() {
		woken, err := w.Wait(context.Background(), 20*time.Second)
		done <- result{woken, err, time.Now()}
	}()
	time.Sleep(100 * time.Millisecond) // the Wait is past its first look and waits for the lock
	w.signal()
	sent := time.Now()
	theHub.mu.Unlock()
	select {
	case r := <-done:
		if !r.woken || r.err != nil {
			t.Fatalf("Wait = %v, %v; want woken", r.woken, r.err)
		}
		if d := r.at.Sub(sent); d > 5*time.Second {
			t.Fatalf("Wait returned %v after the wake; want at once", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the Wait missed a wake sent while it took the hub's lock: it read the instance instead")
	}
}
