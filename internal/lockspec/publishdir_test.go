package lockspec_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// dirEstate is a fresh estate of the class of no hard links with the
// directory publish (osfs over a temp dir, through nolinkfs).
func dirEstate(t *testing.T) *estate { return newEstate(t, dirClass) }

// writeDirLock puts a directory lock under the lock name, as a holder (or
// a crash) left it: a directory holding one file, marker, with data.
func (e *estate) writeDirLock(t *testing.T, marker string, data []byte) {
	t.Helper()
	if err := os.Mkdir(e.path(lockP), 0o755); err != nil {
		t.Fatal(err)
	}
	e.writeRaw(t, lockP+"/"+marker, data)
}

// dirNoWait is fast(h) with no time to wait.
func dirNoWait(h lockspec.Host) lockspec.Options {
	o := fast(h)
	o.Timeout = lockspec.NoWait
	return o
}

// staged lists the staging directories left in the folder.
func (e *estate) staged(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, n := range e.ls(t) {
		if strings.Contains(n, ".staged-") {
			out = append(out, n)
		}
	}
	return out
}

// A lock published as a directory holds its record as <token>.json, and
// a live owner, paused while it holds it, stays exclusive: a contender
// times out on it, judged alive, and the lock is untouched.
func TestDirPausedOwnerStaysExclusive(t *testing.T) {
	e := dirEstate(t)
	m := locktest.NewMachine("host-a")
	h, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(m.Spawn()))
	if err != nil {
		t.Fatal(err)
	}
	if !h.Directory() || h.HardLinks() {
		t.Fatalf("Directory() = %v, HardLinks() = %v; want the directory publish", h.Directory(), h.HardLinks())
	}
	marker := lockP + "/" + h.Token() + ".json"
	before := e.readRaw(t, marker)
	o := fast(m.Spawn())
	o.Timeout = lockspec.NoWait
	_, err = lockspec.Acquire(context.Background(), e.fsys, target, o)
	var te *lockspec.TimeoutError
	if !errors.As(err, &te) || te.Holder.State != lockspec.StateAlive || !te.Holder.Directory || te.Holder.Token != h.Token() {
		t.Fatalf("contender: %v (%+v); want a timeout on the live directory lock", err, te)
	}
	if got := e.readRaw(t, marker); string(got) != string(before) {
		t.Fatalf("the lock's record changed under its live owner: %q", got)
	}
	if err := h.Commit([]byte(`["a"]`)); err != nil {
		t.Fatalf("commit of the paused owner: %v", err)
	}
	if err := h.Release(); err != nil {
		t.Fatal(err)
	}
	e.onlyTarget(t, true)
}

// A writer killed at acquire:staged leaves only its staging directory,
// never a lock: the next writer goes through at once, and its sweep
// removes the dead writer's staging directory (marker, then directory).
func TestDirKillAtStagedLeavesNoBlock(t *testing.T) {
	e := dirEstate(t)
	m := locktest.NewMachine("host-a")
	dead := m.Spawn()
	o := fast(dead)
	killed := errors.New("killed at acquire:staged")
	lockspec.SetOnStep(&o, func(s lockspec.Step) {
		if s == lockspec.StepAcquireStaged {
			dead.Kill()
			panic(killed)
		}
	})
	func() {
		defer func() {
			if r := recover(); r != killed {
				t.Fatalf("recovered %v", r)
			}
		}()
		_, _ = lockspec.Acquire(context.Background(), e.fsys, target, o)
	}()
	if e.exists(lockP) || len(e.staged(t)) != 1 {
		t.Fatalf("after the kill the folder holds %q; want one staging directory and no lock", e.ls(t))
	}
	n := fast(m.Spawn())
	n.Timeout = lockspec.NoWait
	if err := lockspec.Update(context.Background(), e.fsys, target, appendRecord("next"), n); err != nil {
		t.Fatalf("the next writer: %v", err)
	}
	e.wantRecords(t, "next")
	e.onlyTarget(t, true)
}

// The staging directory of a publish that found the lock held is removed:
// a failed acquisition leaves nothing of its own. Kills "skip the staging
// cleanup".
func TestDirStagingRemovedAfterFailedAcquire(t *testing.T) {
	e := dirEstate(t)
	m := locktest.NewMachine("host-a")
	h, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(m.Spawn()))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Release()
	// The contender stages while the name is free, and renames after the
	// holder took it: paused at acquire:staged, it is let go once the
	// holder's lock is back.
	if err := h.Release(); err != nil {
		t.Fatal(err)
	}
	o := fast(m.Spawn())
	o.Timeout = lockspec.NoWait
	var h2 *lockspec.Hold
	lockspec.SetOnStep(&o, func(s lockspec.Step) {
		if s == lockspec.StepAcquireStaged && h2 == nil {
			var err error
			if h2, err = lockspec.Acquire(context.Background(), e.fsys, target, fast(m.Spawn())); err != nil {
				t.Errorf("the other writer: %v", err)
			}
		}
	})
	_, err = lockspec.Acquire(context.Background(), e.fsys, target, o)
	var te *lockspec.TimeoutError
	if !errors.As(err, &te) {
		t.Fatalf("contender: %v; want a timeout", err)
	}
	if s := e.staged(t); len(s) != 0 {
		t.Fatalf("staging directories left after a failed acquisition: %q", s)
	}
	if h2 == nil || h2.Fence() != nil {
		t.Fatal("the other writer does not hold the lock")
	}
	_ = h2.Release()
}

// Two contenders that meet a directory lock whose owner was killed
// serialize: one breaks it, both commit, nothing is left.
func TestDirContendersSerializeAfterKill(t *testing.T) {
	e := dirEstate(t)
	m := locktest.NewMachine("host-a")
	owner := m.Spawn()
	h, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(owner))
	if err != nil {
		t.Fatal(err)
	}
	owner.Kill() // its lock stays, as a killed process leaves it
	_ = h
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, rec := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := fast(m.Spawn())
			o.Timeout = 5 * time.Second
			errs[i] = lockspec.Update(context.Background(), e.fsys, target, appendRecord(rec), o)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("contender %d: %v", i, err)
		}
	}
	got := e.records(t)
	if len(got) != 2 {
		t.Fatalf("records %q; want both", got)
	}
	e.onlyTarget(t, true)
}

// An empty file at the lock name (an earlier build's, or one this build's
// exclusive create was killed writing) stays in place and blocks, on the
// directory publish's class too: its writer may still be writing it.
func TestDirEmptyLegacyFileBlocks(t *testing.T) {
	e := dirEstate(t)
	e.writeRaw(t, lockP, nil)
	m := locktest.NewMachine("host-a")
	o := fast(m.Spawn())
	o.Timeout = lockspec.NoWait
	_, err := lockspec.Acquire(context.Background(), e.fsys, target, o)
	var te *lockspec.TimeoutError
	if !errors.As(err, &te) || te.Holder.State != lockspec.StateUnreadable || te.Holder.Directory {
		t.Fatalf("acquire over an empty file lock: %v; want a timeout on an unreadable file", err)
	}
	if got := e.ls(t); len(got) != 1 || got[0] != "log.json.lock" || len(e.readRaw(t, lockP)) != 0 {
		t.Fatalf("folder holds %q; want only the empty lock, untouched", got)
	}
}

// Where the no-replace rename works, an empty directory at the lock name
// is never replaced (a plain rename would replace it on ext4): it is an
// unreadable lock, a block. Kills "a replacing rename where no-replace is
// available".
func TestDirEmptyDirectoryNotReplaced(t *testing.T) {
	// "before": the directory is there when the writer looks (its Lstat
	// sees the name taken); "after-staging": it is made between that look
	// and the rename, which must not replace it; "after-staging-plain":
	// the same on a volume without the no-replace flag (exfat-fuse,
	// ntfs-3g), where the plain rename's own Lstat must see it.
	for _, when := range []string{"before", "after-staging", "after-staging-plain"} {
		t.Run(when, func(t *testing.T) {
			e := dirEstate(t)
			e.fsys = ext4Rename{e.fsys}
			if when == "after-staging-plain" {
				e.fsys = noRename2{e.fsys}
			}
			mkdir := func() {
				if err := os.Mkdir(e.path(lockP), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			m := locktest.NewMachine("host-a")
			o := fast(m.Spawn())
			o.Timeout = lockspec.NoWait
			if when == "before" {
				mkdir()
			} else {
				atStagedOnce(&o, mkdir)
			}
			_, err := lockspec.Acquire(context.Background(), e.fsys, target, o)
			var te *lockspec.TimeoutError
			if !errors.As(err, &te) || te.Holder.State != lockspec.StateUnreadable || !te.Holder.Directory {
				t.Fatalf("acquire over an empty directory: %v; want a timeout on an unreadable directory", err)
			}
			ents, err := os.ReadDir(e.path(lockP))
			if err != nil || len(ents) != 0 || len(e.staged(t)) != 0 {
				t.Fatalf("the empty directory holds %v (%v), folder %q; want it untouched and nothing staged left", ents, err, e.ls(t))
			}
		})
	}
}

// atStagedOnce makes o call take at its first acquire:staged: after the
// publish looked at the lock name and staged its record, before the
// rename.
func atStagedOnce(o *lockspec.Options, take func()) {
	done := false
	lockspec.SetOnStep(o, func(s lockspec.Step) {
		if s == lockspec.StepAcquireStaged && !done {
			done = true
			take()
		}
	})
}

// ext4Rename is an FS whose Rename does what rename(2) does on ext4 (Go's
// os.Rename refuses a directory target itself): a directory renamed onto
// an empty directory replaces it. RenameNoReplace is the wrapped FS's.
type ext4Rename struct{ vfs.FS }

func (f ext4Rename) Unwrap() vfs.FS { return f.FS }

func (f ext4Rename) RenameNoReplace(oldname, newname string) error {
	return vfs.RenameNoReplace(f.FS, oldname, newname)
}

func (f ext4Rename) Rename(oldname, newname string) error {
	if fi, err := f.Lstat(newname); err == nil && fi.IsDir() {
		if ents, err := f.ReadDir(newname); err == nil && len(ents) == 0 {
			if err := f.Remove(newname); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	return f.FS.Rename(oldname, newname)
}

// noRename2 is an FS whose volume refuses the no-replace rename, as
// exfat-fuse and ntfs-3g answer renameat2's flag (EINVAL: unsupported).
type noRename2 struct{ vfs.FS }

func (f noRename2) Unwrap() vfs.FS { return f.FS }

func (f noRename2) RenameNoReplace(oldname, newname string) error {
	return &os.LinkError{Op: "renamenoreplace", Old: oldname, New: newname, Err: errors.ErrUnsupported}
}

// A staging directory swept while it is still empty, or while its marker's
// kernel lock is not yet taken (by a sweep of another pid namespace, to
// which the writer's pid is gone), costs the writer nothing: it stages
// again under a new attempt and takes the lock, and nothing is left.
func TestDirStagingSweptWhileEmptyStagesAgain(t *testing.T) {
	for _, when := range []string{"empty", "marker-not-held"} {
		t.Run(when, func(t *testing.T) {
			e, ffs := dirFaults(t)
			swept := 0
			beforeStaged(ffs, faultfs.OpOpenFile, func(ev faultfs.Event) error {
				if swept > 0 || when == "marker-not-held" {
					return nil
				}
				swept++
				if err := e.fsys.Remove(path.Dir(ev.Name)); err != nil {
					t.Errorf("sweeping the empty staging directory: %v", err)
				}
				return nil
			})
			ffs.After(func(ev faultfs.Event) error {
				if when != "marker-not-held" || swept > 0 || ev.Op != faultfs.OpOpenFile || ev.Err != nil || !strings.Contains(ev.Name, ".staged-") {
					return ev.Err
				}
				swept++
				// The marker is made and not yet held: a sweep granted its
				// kernel lock removes it, then the directory.
				if err := e.fsys.Remove(ev.Name); err != nil {
					t.Errorf("sweeping the marker: %v", err)
				}
				if err := e.fsys.Remove(path.Dir(ev.Name)); err != nil {
					t.Errorf("sweeping the staging directory: %v", err)
				}
				return nil
			})
			h, err := lockspec.Acquire(context.Background(), ffs, target, fast(nil)) // kernel locks: the real host
			if err != nil {
				t.Fatalf("Acquire after its staging directory was swept: %v", err)
			}
			if swept != 1 {
				t.Fatalf("the staging directory was swept %d times; want once", swept)
			}
			if err := h.Release(); err != nil {
				t.Fatal(err)
			}
			if got := e.ls(t); len(got) != 0 {
				t.Errorf("left: %q", got)
			}
		})
	}
}

// A publish whose marker was moved out of its staging directory just
// before the rename (by a sweep to which this writer's pid is gone, where
// the writer holds no kernel lock on it) would leave the lock an empty
// directory, a block: the writer sees its marker is not in the directory
// it published, removes that directory (its own, empty) and publishes
// again, and the lock it holds is whole.
func TestDirPublishWithoutItsMarkerIsUndone(t *testing.T) {
	e, ffs := dirFaults(t)
	moved := false
	beforeStaged(ffs, faultfs.OpRename, func(ev faultfs.Event) error {
		if moved || ev.NewName != lockP {
			return nil
		}
		moved = true
		ents, err := os.ReadDir(e.path(ev.Name))
		if err != nil || len(ents) != 1 {
			t.Errorf("the staging directory holds %v (%v)", ents, err)
			return nil
		}
		return os.Rename(e.path(ev.Name+"/"+ents[0].Name()), e.path("swept-marker"))
	})
	h, err := lockspec.Acquire(context.Background(), ffs, target, fast(locktest.NewMachine("host-a").Spawn()))
	if err != nil {
		t.Fatalf("Acquire: %v", err)
	}
	if !moved {
		t.Fatal("the marker was never moved out")
	}
	if err := h.Fence(); err != nil {
		t.Fatalf("the hold's fence: %v; want the lock whole", err)
	}
	if err := h.Release(); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(e.path("swept-marker")); err != nil {
		t.Fatal(err)
	}
	if got := e.ls(t); len(got) != 0 {
		t.Errorf("left: %q", got)
	}
}

// A marker that cannot be created in the staging directory (EACCES, say)
// fails the acquisition with that error, and the staging directory it was
// to go in is removed: nothing is left.
func TestDirMarkerCreateRefusedLeavesNoStaging(t *testing.T) {
	e, ffs := dirFaults(t)
	tries := 0
	beforeStaged(ffs, faultfs.OpOpenFile, func(faultfs.Event) error { tries++; return syscall.EACCES })
	_, err := lockspec.Acquire(context.Background(), ffs, target, fast(locktest.NewMachine("host-a").Spawn()))
	if !errors.Is(err, syscall.EACCES) {
		t.Fatalf("Acquire with the marker refused: %v; want EACCES", err)
	}
	if tries != 1 {
		t.Errorf("the marker's create was tried %d times; want once: only a swept staging directory is staged again", tries)
	}
	if got := e.ls(t); len(got) != 0 {
		t.Errorf("left: %q", got)
	}
}

// A writer whose staging directory is swept every time it stages (by
// sweeps of another pid namespace, each as its marker is made) stages
// again a bounded number of times (four stagings), then fails with the
// error of its last try and leaves nothing; it does not stage forever.
func TestDirStagingSweptAgainAndAgainGivesUp(t *testing.T) {
	e, ffs := dirFaults(t)
	const bound = 4 // one staging, and maxNamesLost (3) more
	stagings := 0
	ffs.Before(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpMkdir && strings.Contains(ev.Name, ".staged-") {
			stagings++
		}
		return nil
	})
	beforeStaged(ffs, faultfs.OpOpenFile, func(ev faultfs.Event) error {
		if stagings > bound {
			return nil // a writer past the bound: let it through, so the test ends
		}
		if err := e.fsys.Remove(path.Dir(ev.Name)); err != nil {
			t.Errorf("sweeping the empty staging directory: %v", err)
		}
		return nil
	})
	_, err := lockspec.Acquire(context.Background(), ffs, target, fast(locktest.NewMachine("host-a").Spawn()))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Acquire with every staging directory swept: %v; want it to give up with ENOENT", err)
	}
	if stagings != bound {
		t.Errorf("it staged %d times; want %d", stagings, bound)
	}
	if got := e.ls(t); len(got) != 0 {
		t.Errorf("left: %q", got)
	}
}

// A writer that finds the lock name taken stages nothing: no staging
// directory is made for a publish the no-replace rename would refuse
// (under contention, each refused attempt would cost a staging, two syncs
// and three removals).
func TestDirPublishOntoATakenNameStagesNothing(t *testing.T) {
	e, ffs := dirFaults(t)
	m := locktest.NewMachine("host-a")
	holder, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(m.Spawn()))
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Release()
	stagings := 0
	beforeStaged(ffs, faultfs.OpMkdir, func(faultfs.Event) error { stagings++; return nil })
	_, err = lockspec.Acquire(context.Background(), ffs, target, dirNoWait(m.Spawn()))
	var te *lockspec.TimeoutError
	if !errors.As(err, &te) || te.Holder.State != lockspec.StateAlive {
		t.Fatalf("contender: %v; want a timeout on the live holder", err)
	}
	if stagings != 0 {
		t.Errorf("the contender made %d staging directories for a lock name it could see taken; want none", stagings)
	}
}
