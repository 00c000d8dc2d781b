package probe

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"path"
	"slices"

	"github.com/pa-toolkit/pa/vfs"
)

// Report is what [Run] found on one volume.
type Report struct {
	// Folder is the folder the probe worked in, a name in the FS probed.
	Folder string `json:"folder"`
	// Class is the lock's class on this volume as a hold would learn it:
	// "links" when link() works, "nolinks" when it fails with anything but
	// ENOENT or EEXIST (vfs.NoHardLinks), "" when the probe could not tell.
	Class string `json:"class"`
	// Checks are the checks in the order they ran.
	Checks []Check `json:"checks"`
	// Removed reports whether the folder was removed at the end.
	Removed bool `json:"removed"`
	// Left are the names left in the folder at the end that the probe did
	// not create (it never removes those).
	Left []string `json:"left,omitempty"`
	// RemoveErr is the text of the error that kept the folder from being
	// removed at the end ("" when Removed, or when nothing was tried).
	RemoveErr string `json:"removeError,omitempty"`
	// KernelLock is the volume's kernel lock as the lock uses it, from the
	// flock check's trial: whether a hold here claims one in its record.
	KernelLock KernelLock `json:"kernelLock"`
}

// Check is one thing the probe tried.
type Check struct {
	// Name is the check's name: one of the Check* constants.
	Name string `json:"name"`
	// Outcome is one word for what happened; each check's constant says
	// which words it uses.
	Outcome string `json:"outcome"`
	// Errno names the error the operation returned ("EPERM"), if any.
	Errno string `json:"errno,omitempty"`
	// Detail is one line on what was found.
	Detail string `json:"detail"`
	// Stray are names the probe did not create that appeared in its folder
	// during the check (a FUSE .fuse_hidden* file).
	Stray []string `json:"stray,omitempty"`
}

// The checks, in the order Run makes them, with their outcomes.
const (
	// CheckExclusiveCreate: "exclusive" (a second O_CREATE|O_EXCL of the
	// name fails with EEXIST), "not-exclusive" (it succeeds or fails
	// otherwise), "refused" (the first create fails).
	CheckExclusiveCreate = "exclusive-create"
	// CheckLink: "links" (class links), "no-links" (class nolinks, with
	// the errno), "error" (ENOENT or EEXIST: the class cannot be told).
	CheckLink = "link"
	// CheckRenameOverFile: "replaces" or "refused".
	CheckRenameOverFile = "rename-over-file"
	// CheckRenameOverOpenFile: "replaces" or "refused"; Stray lists names
	// that appeared while the old file was open.
	CheckRenameOverOpenFile = "rename-over-open-file"
	// CheckRemoveOpenFile: "removed" or "refused"; Stray as above.
	CheckRemoveOpenFile = "remove-open-file"
	// CheckRenameDirOntoFile: "refused" (ENOTDIR on POSIX) or "replaces".
	// The three directory checks call the system's rename (renameat(2) on
	// the probe's folder; MoveFileEx on Windows) when the FS probed is the
	// real OS, so that they report the volume, not Go's os.Rename, which
	// refuses a directory as the new name with EEXIST before any system
	// call; on any other FS they go through the FS.
	CheckRenameDirOntoFile = "rename-dir-onto-file"
	// CheckRenameDirOntoEmptyDir: "replaces" (POSIX) or "refused".
	CheckRenameDirOntoEmptyDir = "rename-dir-onto-empty-dir"
	// CheckRenameDirOntoNonEmptyDir: "refused" (ENOTEMPTY or EEXIST on
	// POSIX) or "replaces".
	CheckRenameDirOntoNonEmptyDir = "rename-dir-onto-nonempty-dir"
	// CheckRenameNoReplace: the rename that never replaces
	// (vfs.RenameNoReplace), of a directory to an absent name, then onto
	// an empty directory, a directory holding a file and a file:
	// "no-replace" (the directory moves whole to the absent name, and
	// EEXIST onto each), "unsupported" (the FS lacks it or the volume
	// refuses the flag: a FUSE server without rename2), "replaces" (it replaced one: not safe to publish with) or
	// "error".
	CheckRenameNoReplace = "rename-no-replace"
	// CheckDirSync: "synced", "refused-skipped" (refused with an error
	// vfs.SyncDir takes as "this volume cannot": EINVAL, ENOTSUP, ...) or
	// "refused" (any other error, which a commit reports as not synced).
	CheckDirSync = "dir-fsync"
	// CheckFlock: "exclusive" (a second handle is refused with
	// EWOULDBLOCK), "not-exclusive", "unsupported" or "error". Its trial
	// also gives [Report.KernelLock].
	CheckFlock = "flock"
	// CheckListing: "shows" (every create was in the listing taken right
	// after it) or "misses".
	CheckListing = "listing-after-create"
)

// Checks are the names of the checks in the order [Run] makes them.
var Checks = []string{
	CheckExclusiveCreate, CheckLink, CheckRenameOverFile, CheckRenameOverOpenFile,
	CheckRemoveOpenFile, CheckRenameDirOntoFile, CheckRenameDirOntoEmptyDir,
	CheckRenameDirOntoNonEmptyDir, CheckRenameNoReplace, CheckDirSync, CheckFlock, CheckListing,
}

// listingCreates is how many files the listing check creates.
const listingCreates = 20

// Run probes the volume of fsys in a new folder .pa-probe-<12 hex> at the
// root of fsys, then removes that folder and every name it created there.
// It fails only when it cannot make its folder; every other failure is a
// finding in the report. Every handle is closed before the cleanup, and a
// name the probe did not create is never removed: such names are reported
// in Left, and the folder is then left in place.
func Run(fsys vfs.FS) (Report, error) {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		return Report{}, err
	}
	p := &prober{
		fsys: fsys, dir: ".pa-probe-" + hex.EncodeToString(b[:]), ours: map[string]bool{},
		kernel: KernelLock{Outcome: KernelLockNotTried},
	}
	if err := fsys.Mkdir(p.dir, 0o755); err != nil {
		return Report{}, err
	}
	r := Report{Folder: p.dir}
	for _, c := range []func() Check{
		p.exclusiveCreate, p.link, p.renameOverFile, p.renameOverOpenFile,
		p.removeOpenFile, p.renameDirOntoFile, p.renameDirOntoEmptyDir,
		p.renameDirOntoNonEmptyDir, p.renameNoReplace, p.dirSync, p.flock, p.listing,
	} {
		ck := c()
		if ck.Name == CheckLink {
			r.Class = map[string]string{"links": "links", "no-links": "nolinks"}[ck.Outcome]
		}
		r.Checks = append(r.Checks, ck)
	}
	r.KernelLock = p.kernel
	p.cleanup(&r)
	return r, nil
}

// prober is one run: its folder and the names it created there (relative
// to the folder; a directory's entries under it).
type prober struct {
	fsys  vfs.FS
	dir   string
	ours  map[string]bool
	order []string // names created, in order, for the cleanup
	// kernel is what the flock check found of the kernel lock.
	kernel KernelLock
}

func (p *prober) path(name string) string { return path.Join(p.dir, name) }

// made records name as created by the probe.
func (p *prober) made(name string) {
	if !p.ours[name] {
		p.ours[name] = true
		p.order = append(p.order, name)
	}
}

// gone records that name no longer exists (renamed or removed).
func (p *prober) gone(name string) { delete(p.ours, name) }

// stray lists the names in the probe's folder (and in its directories)
// that the probe did not create.
func (p *prober) stray() []string {
	var out []string
	var walk func(rel string)
	walk = func(rel string) {
		entries, err := p.fsys.ReadDir(p.path(rel))
		if err != nil {
			return
		}
		for _, de := range entries {
			name := path.Join(rel, de.Name())
			if !p.ours[name] {
				out = append(out, name)
				continue
			}
			if de.IsDir() {
				walk(name)
			}
		}
	}
	walk(".")
	return out
}

// cleanup removes the names the probe created, deepest and latest first,
// then its folder; names it did not create stay and are reported.
func (p *prober) cleanup(r *Report) {
	for _, name := range slices.Backward(p.order) {
		if !p.ours[name] {
			continue
		}
		if err := p.fsys.Remove(p.path(name)); err == nil || errors.Is(err, fs.ErrNotExist) {
			delete(p.ours, name)
		}
	}
	r.Left = p.stray()
	if err := p.fsys.Remove(p.dir); err != nil {
		r.RemoveErr = err.Error()
		return
	}
	r.Removed = true
}
