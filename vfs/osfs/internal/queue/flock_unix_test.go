//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package queue

import (
	"context"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// Two places joined from files of one open file description (dups of one
// descriptor of the folder) each get a lock of their own: flock(2) locks
// belong to the description, so a place that locked the file it was given
// would share the first place's lock and be the head beside it.
func TestPlacesOfOneDescriptionLockApart(t *testing.T) {
	dir := t.TempDir()
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	dup := func() *os.File {
		t.Helper()
		fd, err := unix.Dup(int(d.Fd()))
		if err != nil {
			t.Fatal(err)
		}
		return os.NewFile(uintptr(fd), dir)
	}
	first, err := Join(dup())
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	second, err := Join(dup())
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if head, err := first.Wait(context.Background(), 0); !head || err != nil {
		t.Fatalf("first place: Wait = %v, %v; want the head at once", head, err)
	}
	if head, err := second.Wait(context.Background(), 0); head || err != nil {
		t.Fatalf("second place: Wait = %v, %v; want not the head while the first is", head, err)
	}
}
