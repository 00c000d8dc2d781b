package lockspec

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/pa-toolkit/pa/vfs"
)

// The kernel lock as proof of life (docs/spawn-log-lock.md, "Proof of
// death"). Every file a writer makes beside the lock, and the lock itself,
// is held with an exclusive kernel lock (flock(2); LockFileEx on Windows)
// by a handle of its own for as long as the name is its owner's. The kernel
// keeps that lock across pid namespaces and lets it go when the owner
// dies, so a judge that is refused it knows a process holds the file,
// whatever a pid says; one that is granted it knows none does.

// errNameLost reports that a name just created is no longer the file its
// creator made: a sweep judged it in the moment before its kernel lock was
// taken, and removed it. The creator makes another.
var errNameLost = errors.New("locking: a name just created was removed before its kernel lock was taken")

// errNameContested reports that another handle kept the kernel lock of a
// name just created past kernelLockPatience: a judge's probe slowed by load,
// or a sweep to which the creator's pid is gone (another pid namespace's)
// that holds it while it moves the name out. A creator of a name beside
// the lock (createHeld) drops it and makes another; the lock itself,
// whose creator must not leave an empty lock behind, goes on without.
var errNameContested = errors.New("locking: another handle kept the kernel lock of a name just created")

// kernelLockPatience bounds how long an owner waits for the kernel lock of
// a file it has just created: only a judge's probe (the time of one read)
// or a sweep (the time of a move and a removal) can hold it. Past it the
// owner of a name beside the lock makes another, and the lock's owner goes
// on without one (its record then claims none): never a block, never a
// false proof.
const kernelLockPatience = 50 * time.Millisecond

// holdKernelLock takes the kernel lock of the file that f, the handle that
// has just created name exclusively, is open on: it opens name again, takes
// the new handle's exclusive lock, checks that the name still leads to f's
// file, and checks that the lock excludes f's own handle (a volume whose
// locks do not exclude a second open proves nothing). It returns the
// locked handle, to keep open while the name is the owner's, and the file's
// key. It returns nil and no error where the volume has no such lock or
// the FS cannot say the file's key: the caller then claims no kernel lock.
// It returns errNameLost when the name was removed meanwhile, and
// errNameContested when another handle kept its lock longer than
// kernelLockPatience.
//
// Only a process that is its host's own takes kernel locks: a Host that is
// no [IdentityHost] (a test's fake processes, goroutines of one real
// process) gets none, since a kernel lock proves a real process alive.
func (e *env) holdKernelLock(fsys vfs.FS, f vfs.File, name string) (vfs.File, vfs.FileKey, error) {
	if !e.kernelLocks() {
		return nil, vfs.FileKey{}, nil
	}
	fi, err := f.Stat()
	if err != nil {
		return nil, vfs.FileKey{}, nil
	}
	key, ok := vfs.KeyOfFile(f, fi)
	if _, locker := f.(vfs.Locker); !ok || !locker {
		return nil, vfs.FileKey{}, nil
	}
	k, err := fsys.OpenFile(name, vfs.ReadFlags, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, vfs.FileKey{}, errNameLost
	}
	if err != nil {
		return nil, vfs.FileKey{}, nil
	}
	if err := lockWithin(k, name); err != nil {
		k.Close()
		if heldElsewhere(err) {
			return nil, vfs.FileKey{}, errNameContested
		}
		return nil, vfs.FileKey{}, nil
	}
	// The lock is ours: a sweep that removed the name did so holding it,
	// so the name is checked only now.
	kfi, kerr := k.Stat()
	kkey, _ := vfs.KeyOfFile(k, kfi)
	nkey, _, nerr := vfs.KeyOfName(fsys, name)
	if kerr != nil || nerr != nil || kkey != key || nkey != key {
		k.Close()
		if nerr != nil && !errors.Is(nerr, fs.ErrNotExist) {
			return nil, vfs.FileKey{}, nil
		}
		return nil, vfs.FileKey{}, errNameLost
	}
	switch err := vfs.TryLock(f, name); {
	case heldElsewhere(err):
		return k, key, nil // excluded by k's lock: it proves something
	case err == nil:
		_ = f.(vfs.Locker).Unlock() // a second open got it too: no proof here
	}
	k.Close()
	return nil, vfs.FileKey{}, nil
}

// kernelLocks reports whether this process takes kernel locks on the
// files it makes: only when its Host is an [IdentityHost].
func (e *env) kernelLocks() bool {
	_, ok := e.host.(IdentityHost)
	return ok
}

// lockPatiently takes k's exclusive kernel lock, trying again while
// another handle holds it (a judge's probe) for up to kernelLockPatience.
func lockPatiently(k vfs.File, name string) bool { return lockWithin(k, name) == nil }

// lockWithin is lockPatiently's try: nil once k's lock is taken, else the
// last TryLock's error (one that heldElsewhere reads as another handle's
// lock when kernelLockPatience ran out).
func lockWithin(k vfs.File, name string) error {
	deadline := time.Now().Add(kernelLockPatience)
	wait := 20 * time.Microsecond
	for {
		err := vfs.TryLock(k, name)
		if err == nil || !heldElsewhere(err) || !time.Now().Before(deadline) {
			return err
		}
		time.Sleep(wait)
		wait = min(2*wait, time.Millisecond)
	}
}

// heldElsewhere reports whether a TryLock error says that another handle
// holds the lock (EWOULDBLOCK).
func heldElsewhere(err error) bool {
	return err != nil && errors.Is(err, syscall.EWOULDBLOCK)
}

// kernelState is what a judge learns from a kernel lock it tried.
type kernelState int

const (
	kernelUnknown kernelState = iota // not claimed, another file, or no proof on this volume
	kernelHeld                       // refused: a process of this kernel holds the file
	kernelFree                       // granted, and it excludes a second open: no process holds it
)

// probeKernel tries, without waiting, the exclusive kernel lock of the
// file that f (opened as name) is open on, when that file is claimed's
// (a lock put back by copy is another file, and its claim proves
// nothing). A lock granted is checked to exclude a second open of name
// before it counts as proof; it is let go when f is closed.
func probeKernel(fsys vfs.FS, f vfs.File, name string, claimed vfs.FileKey) kernelState {
	fi, err := f.Stat()
	if err != nil {
		return kernelUnknown
	}
	if key, ok := vfs.KeyOfFile(f, fi); !ok || key != claimed {
		return kernelUnknown
	}
	return tryKernel(fsys, f, name, claimed)
}

// tryKernel is probeKernel's try, for a file of key.
func tryKernel(fsys vfs.FS, f vfs.File, name string, key vfs.FileKey) kernelState {
	switch err := vfs.TryLock(f, name); {
	case heldElsewhere(err):
		return kernelHeld
	case err != nil:
		return kernelUnknown
	}
	if excludesSecondOpen(fsys, name, key) {
		return kernelFree
	}
	return kernelUnknown
}

// excludesSecondOpen reports whether, with the kernel lock of the file of
// key held through one handle, a second open of name (the same file) is
// refused it: only then does a granted lock prove that no process holds
// it.
func excludesSecondOpen(fsys vfs.FS, name string, key vfs.FileKey) bool {
	g, err := fsys.OpenFile(name, vfs.ReadFlags, 0)
	if err != nil {
		return false
	}
	defer g.Close()
	gfi, err := g.Stat()
	if err != nil {
		return false
	}
	if gkey, ok := vfs.KeyOfFile(g, gfi); !ok || gkey != key {
		return false
	}
	return heldElsewhere(vfs.TryLock(g, name))
}

// createHeld makes a file by an exclusive create under the name newName
// gives, and takes its kernel lock before anything is written
// (holdKernelLock). When a sweep removed the name in the moment before, or
// another handle kept its kernel lock past kernelLockPatience (the name
// then removed by this owner), it makes another, at most maxNamesLost
// times; the last contested one it keeps, with no kernel lock. It returns
// the name, the handle open for writing and the kernel lock's handle (nil
// where there is none); the caller closes both, the kernel lock's once the
// name is no longer its own (removed or renamed over the guarded file).
func (e *env) createHeld(fsys vfs.FS, newName func() (string, error)) (string, vfs.File, vfs.File, vfs.FileKey, error) {
	for lost := 0; ; lost++ {
		name, err := newName()
		if err != nil {
			return "", nil, nil, vfs.FileKey{}, err
		}
		f, err := fsys.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return "", nil, nil, vfs.FileKey{}, err
		}
		k, key, err := e.holdKernelLock(fsys, f, name)
		switch {
		case err == nil:
			return name, f, k, key, nil
		case errors.Is(err, errNameContested) && lost == maxNamesLost:
			return name, f, nil, vfs.FileKey{}, nil // go on without, as the lock's owner does
		case errors.Is(err, errNameContested):
			// A sweep may be moving it out: drop it (its name is this
			// attempt's alone) and make another.
			f.Close()
			_ = fsys.Remove(name)
			continue
		}
		f.Close() // errNameLost: a sweep took the name; it is gone
		if lost == maxNamesLost {
			return "", nil, nil, vfs.FileKey{}, err
		}
	}
}

// maxNamesLost bounds how many names in a row createHeld makes when each
// is removed by a sweep before its kernel lock is taken.
const maxNamesLost = 3

// removeLeftover removes name, a name beside the lock whose owner is on
// this host and whose pid is gone as this process sees it, unless a
// process holds its kernel lock: an owner alive in another pid namespace,
// where its pid means nothing here (docs/spawn-log-lock.md, "Proof of
// death"). While this process holds that kernel lock the name is moved to
// a broken name of this attempt's own, so an owner that takes its lock just
// after the create (createHeld) finds its name gone and makes another;
// then the handle is closed and the moved name removed (a name removed
// while open would show as .fuse_hidden* on FUSE). step, unless noStep, is
// reported just before the move. It reports whether the name was removed.
// A name it cannot open (another user's file of mode 0600: EACCES) is
// left: its kernel lock cannot be tried, so nothing proves its owner dead
// in every pid namespace.
func (e *env) removeLeftover(fsys vfs.FS, n names, name string, step Step) bool {
	var held vfs.File
	if e.kernelLocks() {
		f, err := fsys.OpenFile(name, vfs.ReadFlags, 0)
		switch {
		case err == nil:
			defer f.Close()
			switch err := vfs.TryLock(f, name); {
			case heldElsewhere(err):
				return false // its owner lives, in whatever pid namespace
			case err == nil:
				held = f
			}
		case errors.Is(err, fs.ErrNotExist):
			return false
		default:
			return false // its kernel lock cannot be tried: not proven dead
		}
	}
	if step != noStep {
		e.step(step)
	}
	if held == nil {
		_ = fsys.Remove(name)
		return true
	}
	return e.removeHeld(fsys, n, name, held)
}

// removeFreed removes name, a name beside the lock whose owner's pid
// answers as this process sees it (a reused pid, or one of another pid
// namespace that names another process here), when its content names the
// kernel lock of the very file found (a claim's body, a pending file's or
// a moved lock's record) and no process holds that lock: its owner took
// the lock before writing that content and keeps it until it removes the
// name, so it is dead (or done with the name). The lock is held through
// the move to a broken name of this attempt's own, as in removeLeftover.
// It reports whether the name was removed.
func (e *env) removeFreed(fsys vfs.FS, n names, name string) bool {
	if !e.kernelLocks() {
		return false
	}
	f, err := fsys.OpenFile(name, vfs.ReadFlags, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	// A live owner's name (a waiter's pending file, under contention the
	// common case) is refused first, with nothing read.
	if err := vfs.TryLock(f, name); err != nil {
		return false
	}
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	key, ok := vfs.KeyOfFile(f, fi)
	if !ok {
		return false
	}
	data, err := readUpTo(f, fi.Size(), MaxLockBytes+1)
	if err != nil || len(data) > MaxLockBytes {
		return false
	}
	var body struct {
		KernelLock *kernelLockJSON `json:"kernelLock"`
	}
	if json.Unmarshal(data, &body) != nil || body.KernelLock == nil ||
		(vfs.FileKey{Dev: body.KernelLock.Dev, Ino: body.KernelLock.Ino}) != key ||
		!excludesSecondOpen(fsys, name, key) {
		return false
	}
	return e.removeHeld(fsys, n, name, f)
}

// noStep is removeLeftover's "report no step".
const noStep Step = ""

// linksShareKernelLock is, per device, whether a kernel lock taken through
// one name of a file is the lock of every hard link to it: true on ext4,
// xfs, btrfs and tmpfs, false on a libfuse volume with hard links
// (ntfs-3g), whose kernel keeps a lock per name. It is a property of the
// volume, learned once per process and device (linkedKernelLock).
var linksShareKernelLock sync.Map // uint64 (device) -> bool

// linkedKernelLock reports whether the kernel lock that k holds on the
// pending file at name (of key) will be the lock of the name it is linked
// to, so that the lock's record may claim it (docs/spawn-log-lock.md,
// "Proof of death"). Where that is not known yet for the device, it links
// the file to its probe name (names.probe), tries the kernel lock through
// that name (refused means shared), and removes it. No other process takes
// a probe name's kernel lock (a sweep removes one only once its pending
// twin is gone: sweepProbe), so a refusal there is this hold's own lock,
// never a sweep's that happened to try the name at the same moment (an
// NTFS run of R50 caught a second pending name, tried by a sweep of
// another pid namespace, read as a shared lock: the record then claimed a
// kernel lock that was the pending name's only, and a live holder was
// broken). That link() is the hold's first: an error other than EEXIST or
// ENOENT is returned, and the caller learns from it that the volume has no
// hard links, as it would from its publish's (spec: The steps, "The
// filesystem class is learned per hold"); ENOENT is returned too (the
// pending file is gone).
func (e *env) linkedKernelLock(fsys vfs.FS, name string, key vfs.FileKey, probe string) (bool, error) {
	if v, ok := linksShareKernelLock.Load(key.Dev); ok {
		return v.(bool), nil
	}
	if err := fsys.Link(name, probe); err != nil {
		return false, err
	}
	shared := false
	if g, err := fsys.OpenFile(probe, vfs.ReadFlags, 0); err == nil {
		shared = heldElsewhere(vfs.TryLock(g, probe))
		g.Close() // before the removal (FUSE)
	}
	if err := fsys.Remove(probe); err != nil {
		return false, nil // not learned; the record claims nothing
	}
	linksShareKernelLock.Store(key.Dev, shared)
	return shared, nil
}

// holdLockName takes, where the volume keeps a kernel lock per name
// (ntfs-3g: linkedKernelLock), the kernel lock of the lock's file through
// the lock name itself, when that name still leads to the file of key,
// and returns its handle (nil otherwise). A judge's probe of that name at
// the same moment is waited out (lockPatiently). The record claims no kernel lock
// there, so no judge of the lock relies on it. It is held against sweeps:
// the release, the break and the unlock rename the lock name, and the
// name's lock moves with the file, so a sweep of another pid namespace,
// where the mover's pid is gone, is refused that lock at the moved name
// and keeps it (row R50; an NTFS run caught a release whose moved lock a
// sweep of another namespace had removed).
func holdLockName(fsys vfs.FS, lock string, key vfs.FileKey) vfs.File {
	g, err := fsys.OpenFile(lock, vfs.ReadFlags, 0)
	if err != nil {
		return nil
	}
	fi, err := g.Stat()
	if err == nil {
		if gkey, ok := vfs.KeyOfFile(g, fi); ok && gkey == key && lockPatiently(g, lock) {
			return g
		}
	}
	g.Close()
	return nil
}

// closeKernel closes k, a kernel lock's handle, when there is one.
func closeKernel(k vfs.File) {
	if k != nil {
		k.Close()
	}
}
