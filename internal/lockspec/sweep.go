package lockspec

import (
	"errors"
	"io/fs"
	"path"

	"github.com/pa-toolkit/pa/vfs"
)

// sweep removes every name beside the lock, in the current and the earlier
// shapes, whose recorded owner is on this host and provably dead (spec: The
// steps, Sweep; rows R25, R26, R31, R50): its pid gone as this process sees
// it, and, where this process takes kernel locks, the name's kernel lock
// free, tried and held through the removal (removeLeftover), so that a live
// owner of another pid namespace keeps its names. Nothing is swept by age; a leftover of
// a live owner, of another host or with an owner that cannot be read is
// left alone. The sweep never fails an acquire: a name it cannot list or
// remove stays for the next one. It looks only at the names that begin
// like one beside the lock (vfs.ReadDirPrefix), so unrelated files in the
// folder are left alone. A directory beside the lock (a staging directory
// of the directory publish, or a directory lock moved aside) is swept
// only when its name records this host and a dead pid (removeDirLeftover).
// It returns how many times its listing names the guarded file (more than
// once: doubled.go), or the listing's error.
func (e *env) sweep(fsys vfs.FS, n names) (listed int, err error) {
	all, err := fsys.ReadDir(n.dir)
	if err != nil {
		return 0, err
	}
	listed = vfs.CountNamed(all, path.Base(n.target))
	entries := vfs.FilterPrefix(all, n.swept)
	missing := 0 // keptForRestore's cache
	for _, de := range entries {
		kind, o := n.classify(de.Name())
		if kind == notOurs || !de.IsDir() && e.keptForRestore(fsys, n, de.Name(), &missing) {
			continue
		}
		name := path.Join(n.dir, de.Name())
		if kind == probeOfPending {
			e.sweepProbe(fsys, n, de, o, name)
			continue
		}
		if de.IsDir() {
			if kind == ownerInName && o.hostHash == n.host && e.ownerDead(o, n) {
				e.removeDirLeftover(fsys, n, name)
			}
			continue
		}
		switch kind {
		case ownerInClaim:
			if !e.readClaimOwner(fsys, name, &o) {
				continue // the owner cannot be read: left alone
			}
		}
		if !e.ownerDead(o, n) {
			if kind == ownerInName && o.hostHash == n.host {
				// This host's, and its pid answers here, which may be another
				// process's (a reused pid, another namespace's): the
				// name's kernel lock, where its content names it, decides.
				e.removeFreed(fsys, n, name)
			}
			continue
		}
		if kind == ownerInClaim {
			e.step(StepSweepJudged)
			_ = fsys.Remove(name)
			continue
		}
		e.removeLeftover(fsys, n, name, StepSweepJudged)
	}
	return listed, nil
}

// readClaimOwner reads the owner of an earlier-shape claim from its content:
// the pid, and the hostname when it records one.
func (e *env) readClaimOwner(fsys vfs.FS, name string, o *owner) bool {
	data, _, err := vfs.ReadFile(fsys, name, MaxLockBytes)
	if err != nil {
		return false
	}
	rec, ok := parseRecord(data)
	if !ok {
		return false
	}
	o.pid, o.hostname, o.hasHostname = rec.pid, rec.hostname, rec.hasHostname
	return true
}

// ownerDead reports whether a leftover's owner is on this host (or records
// no host) and its pid is provably dead. Another host's pid is never asked
// about.
func (e *env) ownerDead(o owner, n names) bool {
	switch {
	case o.fromContent && o.hasHostname && o.hostname != e.host.Hostname():
		return false
	case !o.fromContent && o.hostHash != "" && o.hostHash != n.host:
		return false
	}
	return !e.host.Alive(o.pid)
}

// removeDirLeftover removes name, a staging directory or a moved
// directory lock whose owner (as its name records it) is on this host and
// dead, the way every directory of the lock is removed: the one marker it
// holds by its name, then the directory, never recursively. A directory
// holding more than one entry, or an entry that is not a regular file, is
// left alone; so is one whose marker's kernel lock a process holds (a live
// owner's lock moved there by a breaker that died before its put-back, or
// an owner of another pid namespace staging its lock), but for an rmdir
// once this sweep's handle on the marker is closed, which goes only if
// the owner removed its marker meanwhile. Where this process takes kernel
// locks, the marker's is held from its try through its move
// out of the directory (moveAsideAndRemove, as for a name), so an owner
// that takes the marker's lock just after its create finds the name gone
// and stages again (createHeld): released before the move, its lock would
// let that owner go on with a marker about to go, and publish an empty
// directory.
// The sweep:judged step is reported just before the removal.
func (e *env) removeDirLeftover(fsys vfs.FS, n names, name string) {
	ents, err := fsys.ReadDir(name)
	if err != nil || len(ents) > 1 || len(ents) == 1 && !ents[0].Type().IsRegular() {
		return
	}
	if len(ents) == 0 {
		e.step(StepSweepJudged)
		_ = fsys.Remove(name) // rmdir: an entry made since keeps it
		return
	}
	marker := path.Join(name, ents[0].Name())
	var held vfs.File
	if e.kernelLocks() {
		f, err := fsys.OpenFile(marker, vfs.ReadFlags, 0)
		if err != nil {
			return // its kernel lock cannot be tried: not proven dead
		}
		switch err := vfs.TryLock(f, marker); {
		case heldElsewhere(err):
			// Its owner lives, in whatever pid namespace. It may have
			// dropped its marker while this handle was open (a publish
			// that did not land removes the marker, then the
			// directory): a FUSE volume keeps a file removed while open
			// as a .fuse_hidden* name in its folder until the last
			// handle closes, so the owner's rmdir was refused, and the
			// directory is empty only once this handle is closed. The
			// rmdir here removes it then; the owner's marker still there
			// keeps it, and a directory already renamed to the lock
			// name is not at this name.
			f.Close()
			_ = fsys.Remove(name) // rmdir: only while empty
			return
		case err == nil:
			held = f
		default:
			f.Close() // no kernel lock here: its owner is dead by its pid
		}
	}
	e.step(StepSweepJudged)
	if held == nil {
		_ = fsys.Remove(marker)
	} else if removed, err := e.moveAsideAndRemove(fsys, n, marker, held); !removed {
		held.Close()
		if err != nil {
			return
		}
	}
	_ = fsys.Remove(name) // rmdir: an entry made since keeps it
}

// sweepProbe removes name, the probe name of a pending file of this host
// (linkedKernelLock), once its pending twin is gone, without trying any
// kernel lock: the probe's owner removes it before its pending name goes,
// and while the owner lives that pending name is held against every sweep,
// so a probe without its twin is a dead owner's, in whatever pid namespace.
// No process but its owner ever takes a probe name's kernel lock, so the
// owner's try through it answers for the volume alone.
func (e *env) sweepProbe(fsys vfs.FS, n names, de fs.DirEntry, o owner, name string) {
	if de.IsDir() || o.hostHash != n.host {
		return
	}
	if _, err := fsys.Lstat(n.probeTwin(de.Name())); !errors.Is(err, fs.ErrNotExist) {
		return
	}
	e.step(StepSweepJudged)
	_ = fsys.Remove(name)
}
