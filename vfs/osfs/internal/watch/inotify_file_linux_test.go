//go:build linux

package watch

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/vfs"
)

// folder is a temp folder whose names tests watch, as osfs does: the
// folder opened, then Removal of the base name.
type folder string

// WatchRemoval arms a watch on name (a base name) of the folder.
func (f folder) WatchRemoval(name string) (vfs.Watch, error) {
	d, err := os.Open(string(f))
	if err != nil {
		return nil, err
	}
	return Removal(d, name)
}

// fileWatch arms a watch on name in a fresh folder, which must be a watch
// of the file at name.
func fileWatch(t *testing.T, fsys folder, name string) *inotifyWatch {
	t.Helper()
	w, err := fsys.WatchRemoval(name)
	if err != nil {
		t.Fatalf("WatchRemoval(%s): %v", name, err)
	}
	t.Cleanup(func() { w.Close() })
	iw, ok := w.(*inotifyWatch)
	if !ok || !iw.file {
		t.Fatalf("WatchRemoval(%s) = %T (file %v), want a watch of the file", name, w, ok && iw.file)
	}
	return iw
}

// tempFS is a fresh temp folder, as a folder and as its path.
func tempFS(t *testing.T) (folder, string) {
	t.Helper()
	dir := t.TempDir()
	return folder(dir), dir
}

// waitFor is w.Wait with a background ctx; it fails the test on an error.
func waitFor(t *testing.T, w *inotifyWatch, d time.Duration) bool {
	t.Helper()
	woken, err := w.Wait(context.Background(), d)
	if err != nil {
		t.Fatalf("Wait: %v", err)
	}
	return woken
}

// On Linux a watch is on the lock file itself: it wakes when the file
// leaves its name (a release's or a break's rename, an operator's rm), and
// the removals and renames of the other names in the folder (the pending
// file, the temp file renamed over the guarded file, a moved lock) reach
// it not at all: no event, so no wake of the process. A change of the
// file's link count that leaves it at its name (the publisher's removal of
// its pending name, a hard link of the lock) is an event, and it wakes no
// Wait.
func TestFileWatchWakesOnlyForItsFile(t *testing.T) {
	const quietly = 200 * time.Millisecond
	for _, c := range []struct {
		name   string
		do     func(dir string) error
		wakes  bool
		events bool // any event reaches the watch
	}{
		{"released (renamed away)", func(dir string) error { return os.Rename(filepath.Join(dir, "l"), filepath.Join(dir, "l.broken-x")) }, true, true},
		{"removed (rm)", func(dir string) error { return os.Remove(filepath.Join(dir, "l")) }, true, true},
		{"renamed over", func(dir string) error { return os.Rename(filepath.Join(dir, "other"), filepath.Join(dir, "l")) }, true, true},
		{"a pending file removed", func(dir string) error { return os.Remove(filepath.Join(dir, "l.pending-x")) }, false, false},
		{"a temp file renamed over the guarded file", func(dir string) error {
			return os.Rename(filepath.Join(dir, "log.tmp-x"), filepath.Join(dir, "log"))
		}, false, false},
		{"a moved lock removed", func(dir string) error { return os.Remove(filepath.Join(dir, "l.broken-y")) }, false, false},
		{"a name created", func(dir string) error { return os.WriteFile(filepath.Join(dir, "new"), nil, 0o644) }, false, false},
		{"a hard link of the lock removed (its pending name)", func(dir string) error { return os.Remove(filepath.Join(dir, "l.link")) }, false, true},
		// A rename of any name of the file wakes at once, with no lookup:
		// the lock's other name (its pending name) is never renamed, so
		// this wake is spurious, and it costs a read.
		{"a hard link of the lock renamed (spurious, no lookup)", func(dir string) error {
			return os.Rename(filepath.Join(dir, "l.link"), filepath.Join(dir, "l.link2"))
		}, true, true},
		{"the lock written", func(dir string) error { return os.WriteFile(filepath.Join(dir, "l"), []byte("x"), 0o644) }, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			fsys, dir := tempFS(t)
			for _, n := range []string{"l", "other", "l.pending-x", "log", "log.tmp-x", "l.broken-y"} {
				if err := os.WriteFile(filepath.Join(dir, n), []byte(n), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Link(filepath.Join(dir, "l"), filepath.Join(dir, "l.link")); err != nil {
				t.Fatal(err)
			}
			w := fileWatch(t, fsys, "l")
			if err := c.do(dir); err != nil {
				t.Fatal(err)
			}
			d := quietly
			if c.wakes {
				d = 10 * time.Second
			}
			if got := waitFor(t, w, d); got != c.wakes {
				t.Fatalf("woken = %v, want %v", got, c.wakes)
			}
			if n := w.events.Load(); (n > 0) != c.events {
				t.Fatalf("%d events reached the watch, want events: %v", n, c.events)
			}
			if c.wakes && waitFor(t, w, quietly) {
				t.Fatal("a second Wait woke for the same file")
			}
		})
	}
}

// A file that leaves its name after the watch opened it and before the
// watch was added (so the watch never sees it go) wakes the watch at once:
// the name is looked up again once the watch is on.
func TestFileWatchOfAFileGoneBeforeTheWatch(t *testing.T) {
	fsys, dir := tempFS(t)
	lock := filepath.Join(dir, "l")
	os.WriteFile(lock, []byte("X"), 0o644)
	afterFileOpened = func() {
		// A release, and a new holder's lock at the name.
		if err := os.Rename(lock, lock+".broken-x"); err != nil {
			t.Error(err)
		}
		os.WriteFile(lock, []byte("Y"), 0o644)
	}
	defer func() { afterFileOpened = nil }()
	w := fileWatch(t, fsys, "l")
	afterFileOpened = nil
	if !waitFor(t, w, 10*time.Second) {
		t.Fatal("the watch of a file that left its name before the watch was added did not wake")
	}
}

// A name that holds no regular file (a symbolic link, a FIFO, a folder) or
// none at all is watched through its folder, and the watch still wakes
// when the name goes; the FIFO is never opened.
func TestWatchOfANameWithNoFile(t *testing.T) {
	for _, c := range []struct {
		name string
		make func(p string) error
	}{
		{"nothing", func(p string) error { return nil }},
		{"a symbolic link", func(p string) error { return os.Symlink("target", p) }},
		{"a FIFO", func(p string) error { return syscall.Mkfifo(p, 0o644) }},
		{"a folder", func(p string) error { return os.Mkdir(p, 0o755) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			fsys, dir := tempFS(t)
			lock := filepath.Join(dir, "l")
			if err := c.make(lock); err != nil {
				t.Skipf("cannot make %s here: %v", c.name, err)
			}
			w, err := fsys.WatchRemoval("l")
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			if iw := w.(*inotifyWatch); iw.file {
				t.Fatal("a watch of the file, want one of the folder")
			}
			os.WriteFile(lock+"-x", nil, 0o644)
			if c.name == "nothing" {
				os.WriteFile(lock, nil, 0o644) // a lock published after the arm
			}
			os.Rename(lock, lock+".broken")
			if woken, err := w.Wait(context.Background(), 10*time.Second); !woken || err != nil {
				t.Fatalf("Wait = %v, %v; want woken by the rename of the name away", woken, err)
			}
		})
	}
}
