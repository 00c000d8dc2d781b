//go:build unix

package lockspec_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/vfs"
)

// UpdateMapped commits parts that are slices of the mapped read (the
// mapping is still there while the commit writes them): the file is the
// splice, byte for byte, on every class.
func TestUpdateMappedCommitsSlicesOfTheMapping(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		old := bytes.Repeat([]byte("record;"), 1<<14) // 112 KiB: many pages
		e.writeRaw(t, target, old)
		err := lockspec.UpdateMapped(context.Background(), e.fsys, target, func(cur []byte, exists bool) ([][]byte, func() error, error) {
			if !exists || !bytes.Equal(cur, old) {
				return nil, nil, errors.New("read something else")
			}
			return [][]byte{[]byte("head;"), cur[7:], []byte("tail;")}, nil, nil
		}, fast(lockspec.OSHost()))
		if err != nil {
			t.Fatalf("UpdateMapped: %v", err)
		}
		want := append(append([]byte("head;"), old[7:]...), "tail;"...)
		if got := e.readRaw(t, target); !bytes.Equal(got, want) {
			t.Fatalf("file holds %d bytes, want the splice's %d", len(got), len(want))
		}
		e.onlyTarget(t, true)
	})
}

// A file cut short by another process while its mapping is read is an
// error wrapping vfs.ErrChanged, not a crash: nothing is committed, and the
// lock is released (the next update gets it at once).
func TestUpdateMappedFileCutShortIsAnError(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		e.writeRaw(t, target, bytes.Repeat([]byte("x"), 1<<16))
		opts := fast(lockspec.OSHost())
		lockspec.SetOnStep(&opts, func(s lockspec.Step) {
			if s == lockspec.StepHoldRead {
				if err := os.Truncate(e.path(target), 0); err != nil {
					t.Error(err)
				}
			}
		})
		err := lockspec.UpdateMapped(context.Background(), e.fsys, target, func(cur []byte, exists bool) ([][]byte, func() error, error) {
			n := bytes.Count(cur, []byte("x")) // touches the pages past the new end
			return [][]byte{{byte(n)}}, nil, nil
		}, opts)
		if !errors.Is(err, vfs.ErrChanged) {
			t.Fatalf("UpdateMapped on a file cut short: %v; want ErrChanged", err)
		}
		if got := e.readRaw(t, target); len(got) != 0 {
			t.Fatalf("file holds %q; want it as the other process left it (empty)", got)
		}
		e.onlyTarget(t, true)
		next := fast(lockspec.OSHost())
		next.Timeout = lockspec.NoWait
		if err := lockspec.Update(context.Background(), e.fsys, target, func([]byte, bool) ([]byte, error) { return []byte("next"), nil }, next); err != nil {
			t.Fatalf("the next update: %v", err)
		}
	})
}
