package conformance

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/vfs"
)

// selfIdentity is this process's identity as its locks record it; a case
// that needs one of its fields skips where the host cannot read it.
func selfIdentity(t *testing.T) lockspec.Identity {
	t.Helper()
	ih, ok := locking.OSHost().(lockspec.IdentityHost)
	if !ok {
		t.Skip("this system's host records no identity")
	}
	return ih.Self()
}

// identityLock is a lock's content in the shape this implementation
// writes, with the identity fields of id that are set and, when kernel is
// not nil, the claim of a kernel lock on that file.
func identityLock(pid int, token string, at time.Time, id lockspec.Identity, kernel *vfs.FileKey) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `{"pid":%d,"hostname":%q,"token":%q`, pid, hostname(), token)
	if id.Boot != "" {
		fmt.Fprintf(&b, `,"boot":%q`, id.Boot)
	}
	if id.PIDNamespace != 0 {
		fmt.Fprintf(&b, `,"pidNamespace":%d`, id.PIDNamespace)
	}
	if id.StartTime != 0 {
		fmt.Fprintf(&b, `,"startTime":%d`, id.StartTime)
	}
	if kernel != nil {
		fmt.Fprintf(&b, `,"kernelLock":{"dev":%d,"ino":%d}`, kernel.Dev, kernel.Ino)
	}
	fmt.Fprintf(&b, `,"acquiredAt":%q}`, at.UTC().Format("2006-01-02T15:04:05.000Z"))
	return []byte(b.String())
}

// writeClaimingLock writes the lock so that it claims a kernel lock on its
// own file: content made by lockFor once the file's key is known, written
// in place over a first version (one file, one inode).
func (s *site) writeClaimingLock(t *testing.T, lockFor func(key vfs.FileKey) []byte) {
	t.Helper()
	s.writeRaw(t, lockName, []byte("{}"))
	key, ok := vfs.KeyOf(s.stat(t, lockName))
	if !ok {
		t.Skip("this volume gives no inode numbers")
	}
	f, err := os.OpenFile(s.path(lockName), os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(lockFor(key)); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if again, _ := vfs.KeyOf(s.stat(t, lockName)); again != key {
		t.Fatalf("the lock's file changed (%v, then %v)", key, again)
	}
}

// copyLock replaces the lock by a copy of its bytes, another file: a
// put-back by copy, as a volume without hard links makes one. The copy is
// made while the first file still exists (as a put-back's is, beside the
// moved lock), so it never gets the first one's inode number.
func (s *site) copyLock(t *testing.T) {
	t.Helper()
	if fi := s.stat(t, lockName); fi.IsDir() {
		s.copyDirLock(t)
		return
	}
	data := s.readRaw(t, lockName)
	before := s.stat(t, lockName)
	s.writeRaw(t, lockName+".copy", data)
	if err := os.Rename(s.path(lockName+".copy"), s.path(lockName)); err != nil {
		t.Fatal(err)
	}
	if same, known := s.sameFile(before, s.stat(t, lockName)); !known || same {
		t.Skipf("the copy is not known to be another file (known %v, same %v)", known, same)
	}
}

// saidDone fails unless the child ended saying "done ok".
func (c *child) saidDone(t *testing.T) {
	t.Helper()
	c.wait(t)
	if len(c.said) == 0 || c.said[len(c.said)-1] != "done ok" {
		t.Fatalf("child %s ended (%v) having said %q, stderr %q; want done ok", c.name, c.state, c.said, c.stderr.String())
	}
}

// saidKill fails unless the child ended after saying "kill STEP" (a child
// in its own namespace ends through its shell, so its exit status is the
// shell's).
func (c *child) saidKill(t *testing.T, step lockspec.Step) {
	t.Helper()
	c.wait(t)
	for _, l := range c.said {
		if l == "kill "+string(step) {
			return
		}
	}
	t.Fatalf("child %s ended (%v) having said %q, stderr %q; want it killed at %s", c.name, c.state, c.said, c.stderr.String(), step)
}

// otherNamespace is a pid namespace that is not this process's.
func otherNamespace(id lockspec.Identity) uint64 { return id.PIDNamespace + 1 }

// itoa is strconv.Itoa.
func itoa(n int) string { return strconv.Itoa(n) }

// copyDirLock is copyLock for a directory lock: a new directory with a
// copy of its marker takes its place (the old one moved out of the
// agent's folder first, as a rename never replaces a directory that is
// not empty; not removed, since on FUSE a marker its holder has open
// would keep the directory), so the marker is another file.
func (s *site) copyDirLock(t *testing.T) {
	t.Helper()
	ents, err := s.raw.ReadDir(lockName)
	if err != nil || len(ents) != 1 {
		t.Fatalf("the directory lock holds %v (%v); want one marker", ents, err)
	}
	marker := ents[0].Name()
	data := s.readRaw(t, lockName)
	before := s.stat(t, lockName+"/"+marker)
	copied := lockName + ".copy"
	if err := s.raw.Mkdir(copied, 0o755); err != nil {
		t.Fatal(err)
	}
	s.writeRaw(t, copied+"/"+marker, data)
	if err := s.raw.Rename(lockName, "original-lock-"+marker); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(s.path(copied), s.path(lockName)); err != nil {
		t.Fatal(err)
	}
	if same, known := s.sameFile(before, s.stat(t, lockName+"/"+marker)); !known || same {
		t.Skipf("the copy is not known to be another file (known %v, same %v)", known, same)
	}
}
