package lockspec_test

// Unlock: what it refuses and whom it backs off from.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// A claim on the same lock by a breaker on another host is never judged by
// its pid here: unlock backs off and names it. Kills "claim-otherhost-dead".
func TestOtherHostClaimIsLive(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		lock := deadLock(t, e, m)
		const pid = 4343 // never spawned on host-a: it would read as dead
		claim := fmt.Sprintf("d/log.json.lock.claim-%s-%s-%d-0123456789abcdef01234567", keyOf(lock), lockspec.HostHash("host-b"), pid)
		e.writeRaw(t, claim, []byte(`{}`))
		op := fast(m.Spawn())
		held, err := lockspec.Inspect(e.fsys, target, op)
		if err != nil {
			t.Fatal(err)
		}
		err = lockspec.Unlock(context.Background(), e.fsys, target, held, false, op)
		var be *lockspec.BusyError
		if !errors.As(err, &be) || be.Claim.PID != pid {
			t.Fatalf("unlock = %v; want a *BusyError naming pid %d of host-b", err, pid)
		}
		if !e.exists(claim) || !bytes.Equal(e.readRaw(t, lockP), lock) {
			t.Fatal("another host's claim or the lock was touched")
		}
		if n := m.Asked(pid); n != 0 {
			t.Fatalf("another host's claim pid was checked %d times", n)
		}
	})
}

// A directory under the lock name is not a lock: never broken, unlock
// --force refuses it (nothing moved), and a symbolic link there is judged
// unreadable without being followed and removed by --force.
func TestOddLockNamesAndUnlock(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		if err := os.MkdirAll(e.path(lockP+"/inside"), 0o755); err != nil {
			t.Fatal(err)
		}
		held, err := lockspec.Inspect(e.fsys, target, fast(nil))
		if err != nil || held.State != lockspec.StateUnreadable || held.Mode&fs.ModeDir == 0 {
			t.Fatalf("Inspect = %+v, %v; want an unreadable directory", held, err)
		}
		contains(t, lockspec.Describe(held), "a directory")
		err = lockspec.Unlock(context.Background(), e.fsys, target, held, true, fast(nil))
		if !errors.Is(err, lockspec.ErrNotALock) {
			t.Fatalf("unlock --force of a directory: %v, want ErrNotALock", err)
		}
		if got := e.ls(t); len(got) != 1 || got[0] != "log.json.lock" {
			t.Fatalf("folder holds %q, want the directory left where it was", got)
		}
		if err := os.RemoveAll(e.path(lockP)); err != nil {
			t.Fatal(err)
		}
		live := lockJSON(os.Getpid(), hostname(t), true, "111111111111111111111111", time.Now())
		e.writeRaw(t, "d/real", live)
		if err := os.Symlink("real", e.path(lockP)); err != nil {
			t.Fatal(err)
		}
		held, err = lockspec.Inspect(e.fsys, target, fast(nil))
		if err != nil || held.State != lockspec.StateUnreadable || held.Mode&fs.ModeSymlink == 0 {
			t.Fatalf("Inspect of a symlink = %+v, %v; want it unreadable, not followed", held, err)
		}
		if err := lockspec.Unlock(context.Background(), e.fsys, target, held, true, fast(nil)); err != nil {
			t.Fatalf("unlock --force of a symlink: %v", err)
		}
		if got := e.ls(t); len(got) != 1 || got[0] != "real" {
			t.Fatalf("folder holds %q, want the symlink gone and its target left", got)
		}
		if !bytes.Equal(e.readRaw(t, "d/real"), live) {
			t.Fatal("the symlink's target was touched")
		}
	})
}
