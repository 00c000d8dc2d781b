package lockspec_test

// The put-back of a newer lock found by a release or a break.

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// Rows R39/R48 (kill after the put-back): at release:put-back the newer
// lock is back under the lock name and the moved name is still there (it is
// what the next write sweeps); at release:put-back-opened (no hard links)
// the lock name holds an empty file. Kills "step-putback-late" and
// "step-putback-opened-late".
func TestPutBackStepsSeeTheRowsState(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		old, newer := m.Spawn(), m.Spawn()
		var newBytes []byte
		sawPutBack, sawOpened := false, false
		opts := fast(old)
		lockspec.SetOnStep(&opts, func(s lockspec.Step) {
			switch s {
			case lockspec.StepReleasePutBackOpened:
				sawOpened = true
				if got := e.readRaw(t, lockP); len(got) != 0 {
					t.Errorf("at %s the lock holds %q, want an empty file", s, got)
				}
			case lockspec.StepReleasePutBack:
				sawPutBack = true
				if got := e.readRaw(t, lockP); !bytes.Equal(got, newBytes) {
					t.Errorf("at %s the lock holds %q, want the newer lock", s, got)
				}
				moved := false
				for _, n := range e.ls(t) {
					moved = moved || strings.Contains(n, ".broken-")
				}
				if !moved {
					t.Errorf("at %s the moved name is already gone: %q", s, e.ls(t))
				}
			}
		})
		h, err := lockspec.Acquire(context.Background(), e.fsys, target, opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(e.path(lockP)); err != nil { // unlock --force
			t.Fatal(err)
		}
		h2, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(newer))
		if err != nil {
			t.Fatal(err)
		}
		newBytes = e.readRaw(t, lockP)
		if err := h.Release(); !errors.Is(err, lockspec.ErrLockLost) {
			t.Fatalf("release: %v", err)
		}
		if !sawPutBack || sawOpened != (e.class == "nolinks") {
			t.Fatalf("put-back steps seen: put-back=%v opened=%v", sawPutBack, sawOpened)
		}
		_ = h2.Release()
	})
}
