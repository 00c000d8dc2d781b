//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package osfs_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The places of one folder's queue move up in turn: the first is the head
// at once, the next is not until the head leaves; no name is created
// beside the lock (spec: The lock file and the names beside it), and a
// wait ends with ctx.
func TestQueueInTurn(t *testing.T) {
	fsys, dir := newFS(t)
	os.Mkdir(filepath.Join(dir, "d"), 0o755)
	first, err := fsys.JoinQueue("d/l")
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	if head, err := first.Wait(context.Background(), 0); !head || err != nil {
		t.Fatalf("first place: Wait = %v, %v; want the head at once", head, err)
	}
	second, err := fsys.JoinQueue("d/l")
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if head, err := second.Wait(context.Background(), 50*time.Millisecond); head || err != nil {
		t.Fatalf("second place: Wait = %v, %v; want not the head while the first is", head, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := second.Wait(ctx, time.Minute); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait with ctx ended = %v, want context.Canceled", err)
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, "d")); len(ents) != 0 {
		t.Fatalf("the queue made %d names in the folder, want none", len(ents))
	}
	first.Close()
	if head, err := second.Wait(context.Background(), 10*time.Second); !head || err != nil {
		t.Fatalf("second place after the head left: Wait = %v, %v; want the head", head, err)
	}
	if err := second.Close(); err != nil || second.Close() != nil {
		t.Fatalf("Close: %v, want nil twice", err)
	}
}

// The root's own folder (pinned locks: the lock's folder is the root) is
// a queue too: the second place is not the head while the first is.
func TestQueueOfTheRootFolder(t *testing.T) {
	fsys, _ := newFS(t)
	first, err := fsys.JoinQueue("l")
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	second, err := fsys.JoinQueue("l")
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if head, err := second.Wait(context.Background(), 0); head || err != nil {
		t.Fatalf("second place: Wait = %v, %v; want not the head", head, err)
	}
}
