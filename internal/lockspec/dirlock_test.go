package lockspec_test

import (
	"context"
	"errors"
	"os"
	"path"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

const deadToken = "deaddeaddeaddeaddeaddead"

// A directory lock whose one file is not named after the token its record
// carries is unreadable: a block, never broken, even with its pid dead.
// Kills "drop the marker-name check".
func TestDirMarkerNameChecked(t *testing.T) {
	e := dirEstate(t)
	m := locktest.NewMachine("host-a")
	dead := m.Spawn()
	dead.Kill()
	e.writeDirLock(t, "ffffffffffffffffffffffff.json", lockJSON(dead.PID(), "host-a", true, deadToken, time.Now()))
	_, err := lockspec.Acquire(context.Background(), e.fsys, target, dirNoWait(m.Spawn()))
	var te *lockspec.TimeoutError
	if !errors.As(err, &te) || te.Holder.State != lockspec.StateUnreadable || !te.Holder.Directory {
		t.Fatalf("acquire over a misnamed marker: %v; want a timeout on an unreadable directory", err)
	}
	if !e.exists(lockP + "/ffffffffffffffffffffffff.json") {
		t.Fatal("the misnamed directory lock was removed")
	}
	// Named after its token, the same dead record is broken at once.
	if err := os.Rename(e.path(lockP+"/ffffffffffffffffffffffff.json"), e.path(lockP+"/"+deadToken+".json")); err != nil {
		t.Fatal(err)
	}
	if err := lockspec.Update(context.Background(), e.fsys, target, appendRecord("a"), dirNoWait(m.Spawn())); err != nil {
		t.Fatalf("over the dead owner's directory lock: %v", err)
	}
	e.onlyTarget(t, true)
}

// A lock of another host whose pid is dead here is never broken, in the
// file shape and in the directory shape, and another host's staging
// directory is never swept. Kills "remove the same-host check".
func TestDirForeignOwnerNeverBroken(t *testing.T) {
	m := locktest.NewMachine("host-a")
	dead := m.Spawn()
	dead.Kill()
	rec := lockJSON(dead.PID(), "host-b", true, deadToken, time.Now())
	for _, shape := range []string{"file", "directory"} {
		t.Run(shape, func(t *testing.T) {
			e := dirEstate(t)
			if shape == "file" {
				e.writeRaw(t, lockP, rec)
			} else {
				e.writeDirLock(t, deadToken+".json", rec)
			}
			other := lockP + ".staged-" + lockspec.HostHash("host-b") + "-" + strconv.Itoa(dead.PID()) + "-0123456789abcdef01234567"
			if err := os.Mkdir(e.path(other), 0o755); err != nil {
				t.Fatal(err)
			}
			_, err := lockspec.Acquire(context.Background(), e.fsys, target, dirNoWait(m.Spawn()))
			var te *lockspec.TimeoutError
			if !errors.As(err, &te) || te.Holder.State != lockspec.StateOtherHost {
				t.Fatalf("acquire over another host's lock: %v; want a timeout, on another host", err)
			}
			if !e.exists(lockP) || !e.exists(other) {
				t.Fatalf("folder holds %q; want the other host's lock and staging directory kept", e.ls(t))
			}
		})
	}
}

// A delayed reaper removes nothing of a replacement owner's directory:
// the removal of a directory lock it judged is its marker by name (moved
// out beside the lock, then removed), then the now-empty directory, never
// recursive. Here, between the reaper's
// read of the moved lock and its removal, a live owner's directory is put
// where the moved one was; the reaper's removal finds no marker of the
// name it read and a directory that is not empty, and the live owner's
// record survives. Kills "recursive removal".
func TestDirDelayedReaperSparesReplacement(t *testing.T) {
	e := dirEstate(t)
	m := locktest.NewMachine("host-a")
	dead := m.Spawn()
	dead.Kill()
	e.writeDirLock(t, deadToken+".json", lockJSON(dead.PID(), "host-a", true, deadToken, time.Now()))
	live := []byte(`{"pid":1,"hostname":"host-a","token":"1111111111111111111111111"}`)
	ffs := faultfs.New(e.fsys)
	var moved string
	ffs.Before(func(ev faultfs.Event) error {
		// The marker's removal: moved out beside the lock, then removed.
		if ev.Op != faultfs.OpRename || moved != "" || path.Base(ev.Name) != deadToken+".json" || !strings.Contains(ev.Name, ".broken-") {
			return nil
		}
		moved = path.Dir(ev.Name)
		// Another reaper took the moved lock away, and a live owner's
		// directory stands under the name.
		if err := os.Rename(e.path(moved), e.path("d/elsewhere")); err != nil {
			return err
		}
		if err := os.Mkdir(e.path(moved), 0o755); err != nil {
			return err
		}
		return os.WriteFile(e.path(moved+"/1111111111111111111111111.json"), live, 0o644)
	})
	if err := lockspec.Update(context.Background(), ffs, target, appendRecord("a"), dirNoWait(m.Spawn())); err != nil {
		t.Fatalf("the reaper's write: %v", err)
	}
	if moved == "" {
		t.Fatal("the reaper never removed the dead owner's marker")
	}
	if got, err := os.ReadFile(e.path(moved + "/1111111111111111111111111.json")); err != nil || string(got) != string(live) {
		t.Fatalf("the live owner's record after the delayed removal: %q, %v; want it kept", got, err)
	}
}

// A file lock and a directory lock at one name exclude each other: a
// directory publish meets a live file lock (the spec's exclusive create,
// an earlier build) and waits; an exclusive create meets a live directory
// lock and waits. Neither lock is touched.
func TestDirMixedShapesExclude(t *testing.T) {
	for _, first := range []string{"file", "directory"} {
		t.Run(first+" first", func(t *testing.T) {
			e := dirEstate(t)
			m := locktest.NewMachine("host-a")
			o1, o2 := fast(m.Spawn()), dirNoWait(m.Spawn())
			if first == "file" {
				o1.ExclusiveCreate = true
			} else {
				o2.ExclusiveCreate = true
			}
			h, err := lockspec.Acquire(context.Background(), e.fsys, target, o1)
			if err != nil {
				t.Fatal(err)
			}
			if h.Directory() != (first == "directory") {
				t.Fatalf("Directory() = %v for the %s lock", h.Directory(), first)
			}
			_, err = lockspec.Acquire(context.Background(), e.fsys, target, o2)
			var te *lockspec.TimeoutError
			if !errors.As(err, &te) || te.Holder.State != lockspec.StateAlive || te.Holder.Token != h.Token() {
				t.Fatalf("the other shape's writer: %v; want a timeout on the live %s lock", err, first)
			}
			if err := h.Fence(); err != nil {
				t.Fatalf("the %s lock after the other shape's try: %v", first, err)
			}
			if err := h.Release(); err != nil {
				t.Fatal(err)
			}
			e.onlyTarget(t, false)
		})
	}
}

// unlock --force removes an empty directory, or one holding just a
// marker, at the lock name (never recursively), and refuses one holding
// more, which it leaves as it is.
func TestDirUnlockForce(t *testing.T) {
	m := locktest.NewMachine("host-a")
	for _, c := range []struct {
		name    string
		entries []string
		removed bool
	}{
		{"empty", nil, true},
		{"just a marker", []string{"0123456789abcdef01234567.json"}, true},
		{"two files", []string{"a.json", "b.json"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := dirEstate(t)
			if err := os.Mkdir(e.path(lockP), 0o755); err != nil {
				t.Fatal(err)
			}
			for _, n := range c.entries {
				e.writeRaw(t, lockP+"/"+n, []byte("torn"))
			}
			o := fast(m.Spawn())
			h, err := lockspec.Inspect(e.fsys, target, o)
			if err != nil || h.State != lockspec.StateUnreadable || !h.Directory {
				t.Fatalf("Inspect: %+v, %v; want an unreadable directory", h, err)
			}
			if err := lockspec.Unlock(context.Background(), e.fsys, target, h, false, o); err == nil {
				t.Fatal("unlock without force removed an unreadable directory")
			}
			err = lockspec.Unlock(context.Background(), e.fsys, target, h, true, o)
			if c.removed {
				if err != nil {
					t.Fatalf("unlock --force: %v", err)
				}
				e.onlyTarget(t, false)
				return
			}
			if !errors.Is(err, lockspec.ErrNotALock) || len(e.ls(t)) != 1 {
				t.Fatalf("unlock --force of a crowded directory: %v, folder %q; want ErrNotALock and it left", err, e.ls(t))
			}
		})
	}
}

// A publish's rename that lands but reports an error (a network share
// replays it and reports the replay's EEXIST-less failure) is the
// writer's own lock: the staging directory is gone and the lock name holds
// its marker, so the acquisition succeeds rather than waiting on itself,
// and its release leaves nothing.
func TestDirPublishTakesARenameThatLandedWithAnError(t *testing.T) {
	e, ffs := dirFaults(t)
	ffs.After(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpRename && strings.Contains(ev.Name, ".staged-") && ev.Err == nil {
			return syscall.EIO
		}
		return ev.Err
	})
	h, err := lockspec.Acquire(context.Background(), ffs, target, dirNoWait(locktest.NewMachine("host-a").Spawn()))
	if err != nil {
		t.Fatalf("Acquire whose rename landed with EIO: %v; want the lock", err)
	}
	if !h.Directory() {
		t.Fatal("not a directory lock")
	}
	if err := h.Release(); err != nil {
		t.Fatal(err)
	}
	if got := e.ls(t); len(got) != 0 {
		t.Errorf("left: %q", got)
	}
}

// A rename refused with an error other than EEXIST while the lock name is
// taken (Windows answers access denied for a directory renamed onto one)
// is the lock held, whichever backend path ran: the no-replace rename or
// the plain rename after an Lstat.
func TestDirPublishReadsAnyRefusalOntoATakenNameAsHeld(t *testing.T) {
	for _, fallback := range []bool{false, true} {
		e := dirEstate(t)
		m := locktest.NewMachine("host-a")
		var holder *lockspec.Hold
		o := dirNoWait(m.Spawn())
		atStagedOnce(&o, func() { // the holder takes the lock after the contender looked
			var err error
			if holder, err = lockspec.Acquire(context.Background(), e.fsys, target, fast(m.Spawn())); err != nil {
				t.Fatal(err)
			}
		})
		var fsys vfs.FS = faultfs.New(e.fsys)
		ffs := fsys.(*faultfs.FS)
		if fallback {
			fsys = plainRenameOnly{ffs}
		}
		ffs.Before(func(ev faultfs.Event) error {
			if ev.Op == faultfs.OpRename && strings.Contains(ev.Name, ".staged-") {
				return syscall.EACCES
			}
			return nil
		})
		_, err := lockspec.Acquire(context.Background(), fsys, target, o)
		var te *lockspec.TimeoutError
		if !errors.As(err, &te) || te.Holder.State != lockspec.StateAlive {
			t.Fatalf("fallback %v: Acquire onto a held lock refused with EACCES: %v; want a timeout on the live holder", fallback, err)
		}
		holder.Release()
	}
}

// plainRenameOnly hides the no-replace rename of the FS it wraps, as a
// volume without one (exfat-fuse) does: renameAbsent falls back to an
// Lstat and a plain rename.
type plainRenameOnly struct{ vfs.FS }

// A writer whose staging directory was removed just before its rename (by
// a sweep that took it for dead, on a volume without kernel locks) while
// another writer took the lock name with a file lock gets no lock: its
// rename fails (ENOENT), the name is another's, and it times out on that
// live holder, whose lock stays whole. Its staging gone is no proof that
// its rename landed.
func TestDirPublishWhoseStagingWentIsNotItsLock(t *testing.T) {
	e, ffs := dirFaults(t)
	m := locktest.NewMachine("host-a")
	var other *lockspec.Hold
	beforeStaged(ffs, faultfs.OpRename, func(ev faultfs.Event) error {
		if other != nil {
			return nil
		}
		ents, err := os.ReadDir(e.path(ev.Name))
		if err != nil {
			t.Fatal(err)
		}
		for _, de := range ents { // the sweep: the marker, then the directory
			if err := os.Remove(e.path(path.Join(ev.Name, de.Name()))); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Remove(e.path(ev.Name)); err != nil {
			t.Fatal(err)
		}
		o := fast(m.Spawn())
		o.ExclusiveCreate = true
		if other, err = lockspec.Acquire(context.Background(), e.fsys, target, o); err != nil {
			t.Fatalf("the other writer: %v", err)
		}
		return nil
	})
	h, err := lockspec.Acquire(context.Background(), ffs, target, dirNoWait(m.Spawn()))
	var te *lockspec.TimeoutError
	if !errors.As(err, &te) || te.Holder.State != lockspec.StateAlive || te.Holder.Directory {
		if h != nil {
			h.Release()
		}
		t.Fatalf("Acquire whose staging was swept while another took the name: %v; want a timeout on the other's live file lock", err)
	}
	if err := other.Fence(); err != nil {
		t.Errorf("the other writer's fence: %v; want its lock whole", err)
	}
	if err := other.Release(); err != nil {
		t.Fatal(err)
	}
	if got := e.ls(t); len(got) != 0 {
		t.Errorf("left: %q", got)
	}
}

// A publish's rename that lands but reports EEXIST (a replay) is the
// writer's own lock: the lock name holds its marker and its staging is
// gone, so it holds the lock rather than waiting on itself.
func TestDirPublishTakesARenameThatLandedWithEEXIST(t *testing.T) {
	e, ffs := dirFaults(t)
	ffs.After(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpRename && strings.Contains(ev.Name, ".staged-") && ev.Err == nil {
			return syscall.EEXIST
		}
		return ev.Err
	})
	h, err := lockspec.Acquire(context.Background(), ffs, target, dirNoWait(locktest.NewMachine("host-a").Spawn()))
	if err != nil {
		t.Fatalf("Acquire whose rename landed with EEXIST: %v; want the lock", err)
	}
	if err := h.Release(); err != nil {
		t.Fatal(err)
	}
	if got := e.ls(t); len(got) != 0 {
		t.Errorf("left: %q", got)
	}
}
