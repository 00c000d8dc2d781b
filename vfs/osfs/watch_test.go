package osfs_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// watchOn arms a watch on name, or skips where the system has none.
func watchOn(t *testing.T, fsys *osfs.FS, name string) vfs.Watch {
	t.Helper()
	w, err := fsys.WatchRemoval(name)
	if errors.Is(err, errors.ErrUnsupported) {
		t.Skipf("no watch on this system: %v", err)
	}
	if err != nil {
		t.Fatalf("WatchRemoval(%s): %v", name, err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

// wait waits up to d and returns whether the watch woke.
func wait(t *testing.T, w vfs.Watch, d time.Duration) bool {
	t.Helper()
	woken, err := w.Wait(context.Background(), d)
	if err != nil {
		t.Fatalf("Wait: %v", err)
	}
	return woken
}

// quiet is how long a watch is given to wake when it must not: a wake
// within it would be a wrong one.
const quiet = 200 * time.Millisecond

// A watch wakes for the removal of its name and for a rename of it away,
// also when it happened after arming and before the Wait; never for the
// changes of other names in the folder, nor for a write of the file. A
// rename onto the name wakes the watch of the file itself (Linux: the file
// watched has left the name), not the watch of the folder (macOS, BSDs).
func TestWatchWakesOnRemovalOnly(t *testing.T) {
	perFile := runtime.GOOS == "linux"
	fsys, dir := newFS(t)
	os.Mkdir(filepath.Join(dir, "d"), 0o755)
	lock := filepath.Join(dir, "d", "l")
	for _, c := range []struct {
		name  string
		do    func() error
		wakes bool
	}{
		{"rename away", func() error { return os.Rename(lock, lock+".broken") }, true},
		{"remove", func() error { return os.Remove(lock) }, true},
		{"another name removed", func() error { return os.Remove(lock + ".pending") }, false},
		{"another name renamed away", func() error { return os.Rename(lock+".pending", lock+".other") }, false},
		{"another name created", func() error { return os.WriteFile(lock+".tmp", nil, 0o644) }, false},
		{"renamed over", func() error { return os.Rename(lock+".pending", lock) }, perFile},
		{"the folder itself changed: a file written in it", func() error { return os.WriteFile(lock, []byte("x"), 0o644) }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			os.WriteFile(lock, nil, 0o644)
			os.WriteFile(lock+".pending", nil, 0o644)
			w := watchOn(t, fsys, "d/l")
			if err := c.do(); err != nil {
				t.Fatal(err)
			}
			if got := wait(t, w, quiet); got != c.wakes {
				t.Fatalf("woken = %v, want %v", got, c.wakes)
			}
			if c.wakes && wait(t, w, quiet) {
				t.Fatal("a second Wait woke for the same removal")
			}
		})
	}
}

// Two watches on one folder of one process share its inotify watch:
// closing one leaves the other awake.
func TestWatchesOfOneFolder(t *testing.T) {
	fsys, dir := newFS(t)
	for _, n := range []string{"a", "b"} {
		os.WriteFile(filepath.Join(dir, n), nil, 0o644)
	}
	wa := watchOn(t, fsys, "a")
	wb := watchOn(t, fsys, "b")
	if err := wa.Close(); err != nil {
		t.Fatal(err)
	}
	if err := wa.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
	os.Remove(filepath.Join(dir, "a"))
	if wait(t, wb, quiet) {
		t.Fatal("b woke for the removal of a")
	}
	os.Remove(filepath.Join(dir, "b"))
	if !wait(t, wb, 10*time.Second) {
		t.Fatal("b was not woken after the other watch of its folder closed")
	}
}

// A ctx that ends ends the Wait with its error.
func TestWatchWaitEndsWithContext(t *testing.T) {
	fsys, dir := newFS(t)
	os.WriteFile(filepath.Join(dir, "l"), nil, 0o644)
	w := watchOn(t, fsys, "l")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if woken, err := w.Wait(ctx, time.Minute); woken || !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait with an ended ctx = %v, %v; want context.Canceled", woken, err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	if woken, err := w.Wait(ctx, time.Minute); woken || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Wait = %v, %v; want context.DeadlineExceeded", woken, err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("the Wait ended %v after its ctx", d)
	}
}

// A watch whose folder is removed wakes once, then reports that it can
// wake no more (the waiter then polls).
func TestWatchOfARemovedFolder(t *testing.T) {
	fsys, dir := newFS(t)
	os.Mkdir(filepath.Join(dir, "d"), 0o755)
	w := watchOn(t, fsys, "d/l")
	if err := os.Remove(filepath.Join(dir, "d")); err != nil {
		t.Fatal(err)
	}
	if !wait(t, w, 10*time.Second) {
		t.Fatal("not woken by the removal of the folder")
	}
	var err error
	for range 10 { // the folder's events may take more than one Wait
		if _, err = w.Wait(context.Background(), quiet); err != nil {
			break
		}
	}
	if err == nil {
		t.Fatal("the watch of a removed folder never reported that it ended")
	}
}

// The folder is reached through the root: a name outside it, or in a
// folder that is missing or not a folder, cannot be watched.
func TestWatchInsideTheRoot(t *testing.T) {
	fsys, dir := newFS(t)
	os.WriteFile(filepath.Join(dir, "f"), nil, 0o644)
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	for _, name := range []string{"../x", "out/l", "missing/l", "f/l", "d/..", ""} {
		w, err := fsys.WatchRemoval(name)
		if errors.Is(err, errors.ErrUnsupported) {
			t.Skip("no watch on this system")
		}
		if err == nil {
			w.Close()
			t.Errorf("WatchRemoval(%q) armed a watch, want it refused", name)
		}
	}
}

// Several watches of one process wait at once (one of them reads the one
// inotify instance for all): each is woken by the removal of its own name.
func TestWatchesWaitTogether(t *testing.T) {
	fsys, dir := newFS(t)
	names := []string{"a", "b", "c", "d"}
	watches := map[string]vfs.Watch{}
	for _, n := range names {
		os.WriteFile(filepath.Join(dir, n), nil, 0o644)
		watches[n] = watchOn(t, fsys, n)
	}
	type result struct {
		name  string
		woken bool
		err   error
	}
	done := make(chan result, len(names))
	for _, n := range names {
		go func() {
			woken, err := watches[n].Wait(context.Background(), time.Minute)
			done <- result{n, woken, err}
		}()
	}
	for _, n := range names {
		os.Remove(filepath.Join(dir, n))
	}
	for range names {
		select {
		case r := <-done:
			if !r.woken || r.err != nil {
				t.Errorf("the watch of %s: woken %v, %v", r.name, r.woken, r.err)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("not every watch was woken by the removal of its name")
		}
	}
}
