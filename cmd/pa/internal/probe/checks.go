package probe

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"syscall"

	"github.com/pa-toolkit/pa/vfs"
)

// create creates name exclusively with data and closes it.
func (p *prober) create(name, data string) error {
	if err := vfs.WriteFileExclusive(p.fsys, p.path(name), []byte(data), 0o644, false); err != nil {
		if !errors.Is(err, fs.ErrExist) {
			p.made(name) // created, then the write failed: ours to remove
		}
		return err
	}
	p.made(name)
	return nil
}

func (p *prober) mkdir(name string) error {
	if err := p.fsys.Mkdir(p.path(name), 0o755); err != nil {
		return err
	}
	p.made(name)
	return nil
}

// read returns the bytes of name.
func (p *prober) read(name string) (string, error) {
	b, _, err := vfs.ReadFile(p.fsys, p.path(name), 1<<10)
	return string(b), err
}

// rename renames old to new in the probe's folder through the FS and keeps
// the record of its names.
func (p *prober) rename(old, new string) error {
	return p.renameWith(func(old, new string) error { return p.fsys.Rename(p.path(old), p.path(new)) }, old, new)
}

// renameWith renames old to new with rename (names in the probe's folder)
// and keeps the record of its names.
func (p *prober) renameWith(rename func(old, new string) error, old, new string) error {
	if err := rename(old, new); err != nil {
		return err
	}
	var replaced, moved []string
	for name := range p.ours {
		switch {
		case name == new || strings.HasPrefix(name, new+"/"):
			replaced = append(replaced, name)
		case name == old || strings.HasPrefix(name, old+"/"):
			moved = append(moved, name)
		}
	}
	for _, name := range replaced {
		p.gone(name)
	}
	// Parents first, so that the cleanup, which goes from the last name
	// made back, removes a moved directory's entries before it.
	slices.Sort(moved)
	for _, name := range moved {
		p.gone(name)
		p.made(new + strings.TrimPrefix(name, old))
	}
	return nil
}

// failed is a check whose setup failed: it says which step, and the error.
func failed(name, step string, err error) Check {
	return Check{Name: name, Outcome: "error", Errno: ErrnoName(err), Detail: step + ": " + errText(err)}
}

// exclusiveCreate: the lock's publish without hard links and every name
// beside the lock rely on O_CREATE|O_EXCL failing with EEXIST on a name
// that exists.
func (p *prober) exclusiveCreate() Check {
	c := Check{Name: CheckExclusiveCreate}
	if err := p.create("excl", "first"); err != nil {
		c.Outcome, c.Errno = "refused", ErrnoName(err)
		c.Detail = "an exclusive create of a new name failed: " + errText(err)
		return c
	}
	err := p.create("excl", "second")
	switch {
	case errors.Is(err, fs.ErrExist):
		c.Outcome, c.Errno = "exclusive", ErrnoName(err)
		c.Detail = "a second exclusive create of the name fails with " + c.Errno
	case err == nil:
		c.Outcome = "not-exclusive"
		c.Detail = "a second exclusive create of an existing name succeeded"
	default:
		c.Outcome, c.Errno = "not-exclusive", ErrnoName(err)
		c.Detail = "a second exclusive create of the name failed with " + errText(err) + ", not EEXIST"
	}
	return c
}

// link: the lock's class. A link() error other than ENOENT or EEXIST means
// no hard links (vfs.NoHardLinks), and the lock publishes as a directory
// renamed into place instead (the spec's exclusive create by option).
func (p *prober) link() Check {
	c := Check{Name: CheckLink}
	if err := p.create("link-src", "link"); err != nil {
		return failed(c.Name, "creating a file", err)
	}
	err := p.fsys.Link(p.path("link-src"), p.path("link-dst"))
	switch {
	case err == nil:
		p.made("link-dst")
		c.Outcome = "links"
		c.Detail = "link() works: the lock publishes by link() (class links)"
		if got, rerr := p.read("link-dst"); rerr != nil || got != "link" {
			c.Detail += fmt.Sprintf("; but the link reads %q (%v), not the file's bytes", got, rerr)
		}
		if err := p.fsys.Link(p.path("link-src"), p.path("link-dst")); !errors.Is(err, fs.ErrExist) {
			c.Detail += "; but link() onto an existing name did not fail with EEXIST: " + errText(err)
		}
	case vfs.NoHardLinks(err):
		c.Outcome, c.Errno = "no-links", ErrnoName(err)
		c.Detail = "link() fails with " + errText(err) + ": the lock publishes as a directory renamed into place (class nolinks)"
	default:
		c.Outcome, c.Errno = "error", ErrnoName(err)
		c.Detail = "link() onto a new name failed with " + errText(err) + ", which tells no class"
	}
	return c
}

// renameOverFile: every commit is a temp file renamed over the guarded
// file, replacing it atomically.
func (p *prober) renameOverFile() Check {
	c := Check{Name: CheckRenameOverFile}
	if err := p.create("over-new", "new"); err != nil {
		return failed(c.Name, "creating a file", err)
	}
	if err := p.create("over-old", "old"); err != nil {
		return failed(c.Name, "creating a file", err)
	}
	return p.replaced(c, "over-new", "over-old")
}

// replaced renames src over dst (a file) and reports the outcome.
func (p *prober) replaced(c Check, src, dst string) Check {
	if err := p.rename(src, dst); err != nil {
		c.Outcome, c.Errno = "refused", ErrnoName(err)
		c.Detail = "the rename failed: " + errText(err)
		return c
	}
	got, err := p.read(dst)
	switch {
	case err != nil:
		c.Outcome = "replaces"
		c.Detail = "the rename returned, but the name cannot be read: " + errText(err)
	case got != "new":
		c.Outcome = "replaces"
		c.Detail = fmt.Sprintf("the rename returned, but the name reads %q, not the renamed file's bytes", got)
	default:
		c.Outcome = "replaces"
		c.Detail = "the renamed file replaces the old one"
	}
	return c
}

// renameOverOpenFile: a commit renames over the spawn-log while a reader
// may have it open. On Windows the rename may be refused; a FUSE volume
// keeps the old file as .fuse_hidden* until its last handle is closed.
func (p *prober) renameOverOpenFile() Check {
	c := Check{Name: CheckRenameOverOpenFile}
	if err := p.create("open-new", "new"); err != nil {
		return failed(c.Name, "creating a file", err)
	}
	if err := p.create("open-old", "old"); err != nil {
		return failed(c.Name, "creating a file", err)
	}
	f, err := p.fsys.OpenFile(p.path("open-old"), os.O_RDONLY, 0)
	if err != nil {
		return failed(c.Name, "opening the file", err)
	}
	c = p.replaced(c, "open-new", "open-old")
	c.Stray = p.stray()
	old, rerr := io.ReadAll(f)
	f.Close()
	c.Detail += p.openDetail(c.Outcome, string(old), rerr, c.Stray)
	return c
}

// removeOpenFile: a lock is removed (a release, a break) while a waiter
// may have it open to read it.
func (p *prober) removeOpenFile() Check {
	c := Check{Name: CheckRemoveOpenFile}
	if err := p.create("removed", "old"); err != nil {
		return failed(c.Name, "creating a file", err)
	}
	f, err := p.fsys.OpenFile(p.path("removed"), os.O_RDONLY, 0)
	if err != nil {
		return failed(c.Name, "opening the file", err)
	}
	rmErr := p.fsys.Remove(p.path("removed"))
	if rmErr == nil {
		p.gone("removed")
		c.Outcome = "removed"
		c.Detail = "the name is gone at once"
		if _, err := p.fsys.Stat(p.path("removed")); !errors.Is(err, fs.ErrNotExist) {
			c.Detail = "remove returned, but the name is still there: " + errText(err)
		}
	} else {
		c.Outcome, c.Errno = "refused", ErrnoName(rmErr)
		c.Detail = "the remove failed: " + errText(rmErr)
	}
	c.Stray = p.stray()
	old, rerr := io.ReadAll(f)
	f.Close()
	c.Detail += p.openDetail(c.Outcome, string(old), rerr, c.Stray)
	return c
}

// openDetail says what the open handle read and what became of the stray
// names once it was closed.
func (p *prober) openDetail(outcome, old string, rerr error, stray []string) string {
	var d string
	switch {
	case outcome == "refused":
	case rerr != nil:
		d += "; the open handle then failed to read: " + errText(rerr)
	case old != "old":
		d += fmt.Sprintf("; the open handle then read %q, not the old bytes", old)
	default:
		d += "; the open handle still reads the old bytes"
	}
	if len(stray) == 0 {
		return d + "; no other name appeared"
	}
	d += "; while it was open the folder held " + strings.Join(stray, ", ") + ", not ours"
	if left := p.stray(); len(left) > 0 {
		return d + ", and after the close it still holds " + strings.Join(left, ", ")
	}
	return d + ", gone once the handle was closed"
}

// renameDirOntoFile: a directory put under the lock name is never moved by
// the lock; this says what a rename of one does here.
func (p *prober) renameDirOntoFile() Check {
	c := Check{Name: CheckRenameDirOntoFile}
	if err := p.mkdir("dir-a"); err != nil {
		return failed(c.Name, "making a directory", err)
	}
	if err := p.create("file-b", "b"); err != nil {
		return failed(c.Name, "creating a file", err)
	}
	return p.dirRename(c, "dir-a", "file-b")
}

func (p *prober) renameDirOntoEmptyDir() Check {
	c := Check{Name: CheckRenameDirOntoEmptyDir}
	if err := p.mkdir("dir-c"); err != nil {
		return failed(c.Name, "making a directory", err)
	}
	if err := p.mkdir("dir-d"); err != nil {
		return failed(c.Name, "making a directory", err)
	}
	return p.dirRename(c, "dir-c", "dir-d")
}

func (p *prober) renameDirOntoNonEmptyDir() Check {
	c := Check{Name: CheckRenameDirOntoNonEmptyDir}
	if err := p.mkdir("dir-e"); err != nil {
		return failed(c.Name, "making a directory", err)
	}
	if err := p.mkdir("dir-f"); err != nil {
		return failed(c.Name, "making a directory", err)
	}
	if err := p.create("dir-f/x", "x"); err != nil {
		return failed(c.Name, "creating a file", err)
	}
	return p.dirRename(c, "dir-e", "dir-f")
}

// dirRename renames the directory src onto dst with the system's own
// rename when the probe's folder is on the real OS (Go's os.Rename and
// os.Root.Rename refuse a directory as the new name before any system
// call: see systemRenamer), else through the FS, and says which in the
// detail.
func (p *prober) dirRename(c Check, src, dst string) Check {
	via := "; through the FS"
	var err error
	if sys := p.systemRenamer(); sys != nil {
		via = "; the system's rename, not Go's"
		err = p.renameWith(sys, src, dst)
	} else {
		err = p.rename(src, dst)
	}
	if err != nil {
		c.Outcome, c.Errno = "refused", ErrnoName(err)
		c.Detail = "the rename failed: " + errText(err) + via
		return c
	}
	c.Outcome = "replaces"
	c.Detail = "the directory took the name" + via
	if fi, err := p.fsys.Stat(p.path(dst)); err != nil || !fi.IsDir() {
		c.Detail = "the rename returned, but the name is not a directory now" + via
	}
	return c
}

// dirSync: a commit syncs its folder after the rename; vfs.SyncDir takes
// EINVAL, ENOTSUP, EOPNOTSUPP and EBADF as "this volume cannot".
func (p *prober) dirSync() Check {
	c := Check{Name: CheckDirSync}
	f, err := p.fsys.OpenFile(p.dir, os.O_RDONLY, 0)
	if err != nil {
		c.Outcome, c.Errno = "refused-skipped", ErrnoName(err)
		if vfs.SyncDir(p.fsys, p.dir) != nil {
			c.Outcome = "refused"
		}
		c.Detail = "the folder cannot be opened to sync it: " + errText(err)
		return c
	}
	serr := f.Sync()
	f.Close()
	switch {
	case serr == nil:
		c.Outcome = "synced"
		c.Detail = "fsync of the folder works"
	case vfs.SyncDir(p.fsys, p.dir) == nil:
		c.Outcome, c.Errno = "refused-skipped", ErrnoName(serr)
		c.Detail = "fsync of the folder fails with " + errText(serr) + "; the lock's folder sync skips it on this volume"
	default:
		c.Outcome, c.Errno = "refused", ErrnoName(serr)
		c.Detail = "fsync of the folder fails with " + errText(serr) + "; a commit here reports its folder as not synced"
	}
	return c
}

// flock: whether the volume has advisory locks (flock on Unix, LockFileEx
// on Windows) and whether they exclude a second open of the same file: a
// holder of the spawn-log lock claims its kernel lock only where they do.
// The trial also gives the report's [KernelLock] (p.kernel).
func (p *prober) flock() Check {
	c := Check{Name: CheckFlock}
	if err := p.create("flock", ""); err != nil {
		return failed(c.Name, "creating a file", err)
	}
	a, err := p.fsys.OpenFile(p.path("flock"), os.O_RDWR, 0)
	if err != nil {
		return failed(c.Name, "opening the file", err)
	}
	defer a.Close()
	b, err := p.fsys.OpenFile(p.path("flock"), os.O_RDWR, 0)
	if err != nil {
		return failed(c.Name, "opening the file again", err)
	}
	defer b.Close()
	key := hasFileKey(a)
	if err := vfs.TryLock(a, p.path("flock")); err != nil {
		p.kernel = kernelLock(err, nil, key)
		c.Outcome, c.Errno = "error", ErrnoName(err)
		if errors.Is(err, errors.ErrUnsupported) {
			c.Outcome = "unsupported"
		}
		c.Detail = "an advisory lock cannot be taken: " + errText(err)
		return c
	}
	err = vfs.TryLock(b, p.path("flock"))
	p.kernel = kernelLock(nil, err, key)
	switch {
	case errors.Is(err, syscall.EWOULDBLOCK):
		c.Outcome, c.Errno = "exclusive", ErrnoName(err)
		c.Detail = "a second handle is refused with " + c.Errno + " while the first holds the lock"
	case err == nil:
		c.Outcome = "not-exclusive"
		c.Detail = "a second handle took the lock while the first held it"
	default:
		c.Outcome, c.Errno = "error", ErrnoName(err)
		c.Detail = "the second handle failed with " + errText(err) + ", not EWOULDBLOCK"
	}
	if l, ok := a.(vfs.Locker); ok {
		_ = l.Unlock()
	}
	return c
}

// listing: breakers of one dead lock run one at a time only because each
// lists the folder after creating its claim and sees the other's.
func (p *prober) listing() Check {
	c := Check{Name: CheckListing}
	if err := p.mkdir("listing"); err != nil {
		return failed(c.Name, "making a directory", err)
	}
	missed := 0
	for i := range listingCreates {
		name := fmt.Sprintf("listing/claim-%02d", i)
		if err := p.create(name, "claim"); err != nil {
			return failed(c.Name, "creating a file", err)
		}
		entries, err := p.fsys.ReadDir(p.path("listing"))
		if err != nil {
			return failed(c.Name, "listing the folder", err)
		}
		if !hasName(entries, fmt.Sprintf("claim-%02d", i)) {
			missed++
		}
	}
	if missed == 0 {
		c.Outcome = "shows"
		c.Detail = fmt.Sprintf("each of %d creates was in the listing taken right after it", listingCreates)
		return c
	}
	c.Outcome = "misses"
	c.Detail = fmt.Sprintf("%d of %d creates were missing from the listing taken right after them", missed, listingCreates)
	return c
}

func hasName(entries []fs.DirEntry, name string) bool {
	for _, de := range entries {
		if de.Name() == name {
			return true
		}
	}
	return false
}

// errText is err's text with its errno named: "linkat a b: operation not
// permitted (EPERM)".
func errText(err error) string {
	if err == nil {
		return "no error"
	}
	s := err.Error()
	if n := ErrnoName(err); n != "" && !strings.Contains(s, n) {
		s += " (" + n + ")"
	}
	return s
}
