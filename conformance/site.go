package conformance

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/spawnlog"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/nolinkfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
	"github.com/pa-toolkit/pa/vfs/vfstest"
)

// The estate every case writes: one agent, its spawn-log and the lock.
const agent = "demo"

var (
	agentDir = estate.AgentDir(agent)
	logName  = estate.SpawnLogPath(agent)
	lockName = locking.LockName(logName)
	logBase  = filepath.Base(logName)
)

// site is one case's estate: a fresh folder on the volume under test (with
// the agent's folder made), or a fresh FS of RunFS, seen through the case's
// class, and the host its processes run on.
type site struct {
	class Class
	root  string // the folder on disk: the estate's home ("" under RunFS)
	shim  bool   // NoLinks or DirPublish through nolinkfs (false: the volume's own)
	fs    vfs.FS // the class's view of the estate
	raw   vfs.FS // the estate as it is, for what other processes or a crash leave
	world        // the real host, or a fake one under RunFS
}

func newSite(t *testing.T, base string, v volume, c Class) *site {
	t.Helper()
	dir, err := os.MkdirTemp(base, "case-")
	if err != nil {
		t.Fatalf("making the case's folder: %v", err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(agentDir)), 0o755); err != nil {
		t.Fatal(err)
	}
	o, err := osfs.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = o.Close() })
	s := &site{class: c, root: dir, shim: v.shim(c), fs: o, raw: o, world: realWorld{}}
	s.fs = classView(o, c, s.shim)
	return s
}

// newFSSite is a case's estate on a fresh FS from newFS (RunFS), with a
// fake host: the class's view is nolinkfs over it when it has hard links
// and the class is NoLinks. The NoLinks column is the spec's: its view
// selects the exclusive create (nolinkfs.FS.ExclusiveCreate), not the
// directory publish that is the default without hard links.
func newFSSite(t *testing.T, fsys vfs.FS, hasLinks bool, c Class) *site {
	t.Helper()
	if err := vfs.MkdirAll(fsys, agentDir, 0o755); err != nil {
		t.Fatalf("making the agent's folder: %v", err)
	}
	s := &site{class: c, shim: c != Links && hasLinks, fs: fsys, raw: fsys, world: newFakeWorld()}
	s.fs = classView(fsys, c, s.shim)
	return s
}

// classView is class c's view of fsys: fsys itself for Links; for NoLinks
// nolinkfs selecting the spec's exclusive create, its link() refused with
// ENOTSUP where fsys has hard links (shim) and with EPERM, as exFAT
// refuses it, where fsys refuses link() itself; for DirPublish nolinkfs
// refusing link() where fsys has hard links, and fsys as it is otherwise:
// the directory publish is the default without hard links.
func classView(fsys vfs.FS, c Class, shim bool) vfs.FS {
	switch {
	case c == NoLinks && shim:
		return nolinkfs.New(fsys, syscall.ENOTSUP).ExclusiveCreate()
	case c == NoLinks:
		return nolinkfs.New(fsys, syscall.EPERM).ExclusiveCreate()
	case c == DirPublish && shim:
		return nolinkfs.New(fsys, syscall.ENOTSUP)
	}
	return fsys
}

// path is the on-disk path of the slash name under the estate.
func (s *site) path(name string) string { return filepath.Join(s.root, filepath.FromSlash(name)) }

// writeRaw puts bytes under a name, as another process (or a crash) left
// them.
func (s *site) writeRaw(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := s.put(name, data); err != nil {
		t.Fatal(err)
	}
}

// put is writeRaw returning its error, for hooks that must not stop the
// test from another goroutine.
func (s *site) put(name string, data []byte) error {
	if fi, err := s.raw.Lstat(name); err == nil && fi.IsDir() {
		// A directory lock is there (DirPublish): it goes first, as an
		// unlock --force before a new holder's lock.
		if err := s.drop(name); err != nil {
			return err
		}
	}
	f, err := s.raw.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func (s *site) readRaw(t *testing.T, name string) []byte {
	t.Helper()
	if fi, err := s.raw.Lstat(name); err == nil && fi.IsDir() {
		return s.readDirLock(t, name)
	}
	b, _, err := vfs.ReadFile(s.raw, name, 0)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readDirLock reads a directory lock (the directory publish's shape, at
// the lock name or moved aside): the bytes of the one marker it must hold,
// <token>.json. Anything else in the directory fails the test.
func (s *site) readDirLock(t *testing.T, name string) []byte {
	t.Helper()
	ents, err := s.raw.ReadDir(name)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 1 || !ents[0].Type().IsRegular() || !strings.HasSuffix(ents[0].Name(), ".json") {
		t.Fatalf("the directory lock %s holds %v; want one marker <token>.json", name, ents)
	}
	b, _, err := vfs.ReadFile(s.raw, path.Join(name, ents[0].Name()), 0)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (s *site) exists(name string) bool {
	_, err := s.raw.Lstat(name)
	return err == nil
}

// remove removes a name, as another process (unlock --force) does.
func (s *site) remove(t *testing.T, name string) {
	t.Helper()
	if err := s.drop(name); err != nil {
		t.Fatal(err)
	}
}

// drop is remove returning its error, for hooks: a directory lock goes as
// unlock --force removes one, its entries (one marker) and then the
// directory, never recursively.
func (s *site) drop(name string) error {
	if fi, err := s.raw.Lstat(name); err == nil && fi.IsDir() {
		ents, err := s.raw.ReadDir(name)
		if err != nil {
			return err
		}
		for _, de := range ents {
			if err := s.raw.Remove(path.Join(name, de.Name())); err != nil {
				return err
			}
		}
	}
	return s.raw.Remove(name)
}

// stat returns a name's file information.
func (s *site) stat(t *testing.T, name string) fs.FileInfo {
	t.Helper()
	fi, err := s.raw.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}

// sameFile reports whether a and b are one file (one inode): known only on
// the real OS; under RunFS only the bytes tell.
func (s *site) sameFile(a, b fs.FileInfo) (same, known bool) {
	if s.root == "" {
		return false, false
	}
	return os.SameFile(a, b), true
}

// chtimes sets a file's times on the volume (the file time of a lock).
func (s *site) chtimes(t *testing.T, name string, at time.Time) {
	t.Helper()
	if err := vfs.Chtimes(s.raw, name, at, at); err != nil {
		t.Fatal(err)
	}
}

// ls lists the agent's folder, sorted. A .fuse_hidden* name (libfuse's
// for a file removed or renamed over while a handle had it open) is waited
// for to go, up to fuseRelease: libfuse removes it when it handles the
// release of the file's last handle, which an NTFS run showed can come
// just after the close(2) of a process, or the exit of a killed one,
// has returned. One still there then is listed, and fails the case.
func (s *site) ls(t *testing.T) []string {
	t.Helper()
	deadline := time.Now().Add(fuseRelease)
	for {
		names, hidden := s.list(t)
		if !hidden || !time.Now().Before(deadline) {
			return names
		}
		time.Sleep(time.Millisecond)
	}
}

// fuseRelease bounds ls's wait for libfuse to remove a hidden name.
const fuseRelease = 2 * time.Second

// list is one listing of the agent's folder, sorted, but for the lock's
// incident log (locking.IncidentsName: timeouts, breaks and forced unlocks
// append to it, and nothing removes it), and whether it holds a
// .fuse_hidden* name.
func (s *site) list(t *testing.T) ([]string, bool) {
	t.Helper()
	ents, err := s.raw.ReadDir(agentDir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	hidden := false
	for _, de := range ents {
		if estatetest.IsIncidentLog(de.Name()) {
			continue
		}
		names = append(names, de.Name())
		hidden = hidden || strings.HasPrefix(de.Name(), ".fuse_hidden")
	}
	slices.Sort(names)
	return names, hidden
}

// incidentNote matches pa board check's line of an agent's recent lock
// incidents (a timeout, a break, a forced unlock): no problem, and no
// leftover.
var incidentNote = regexp.MustCompile(`(?m)^[0-9]+ lock incidents? in the last .*\n`)

// files lists the names under the folder dir of the estate (relative to
// dir, folders with a trailing '/'), sorted, but for incident logs; a
// missing folder lists nothing.
func (s *site) files(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	err := fs.WalkDir(vfstest.IOFS(s.raw), dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir || estatetest.IsIncidentLog(p) {
			return nil
		}
		rel := strings.TrimPrefix(p, dir+"/")
		if d.IsDir() {
			rel += "/"
		}
		names = append(names, rel)
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	slices.Sort(names)
	return names
}

// snapshot is every file of the estate and its bytes, and every folder,
// to compare before and after a read-only command.
func (s *site) snapshot(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, name := range s.files(t, ".") {
		if strings.HasSuffix(name, "/") {
			out[name] = ""
			continue
		}
		out[name] = string(s.readRaw(t, name))
	}
	return out
}

// onlyLog fails unless the agent's folder holds the spawn-log and nothing
// else.
func (s *site) onlyLog(t *testing.T) {
	t.Helper()
	if got := s.ls(t); !slices.Equal(got, []string{logBase}) {
		t.Fatalf("the agent folder holds %q; want only %s", got, logBase)
	}
}

// empty fails unless the agent's folder holds nothing.
func (s *site) empty(t *testing.T) {
	t.Helper()
	if got := s.ls(t); len(got) != 0 {
		t.Fatalf("the agent folder holds %q; want nothing", got)
	}
}

// write appends a record titled title to the spawn-log under the lock, as
// one writer (spawnlog.Append, a whole read-modify-write).
func (s *site) write(title string, o locking.Options) error {
	_, err := spawnlog.Append(context.Background(), s.fs, agent, title, nil, o)
	return err
}

func (s *site) mustWrite(t *testing.T, title string, o locking.Options) {
	t.Helper()
	if err := s.write(title, o); err != nil {
		t.Fatalf("writing %q: %v", title, err)
	}
}

// titles are the titles of the spawn-log's records, in order.
func (s *site) titles(t *testing.T) []string {
	t.Helper()
	log, err := spawnlog.Read(s.fs, agent)
	if err != nil {
		t.Fatalf("reading the spawn-log: %v", err)
	}
	var out []string
	for _, r := range log.Records {
		out = append(out, r.Title)
	}
	return out
}

// wantTitles fails unless the spawn-log holds exactly the records titled
// want, each once, in any order, with distinct ids.
func (s *site) wantTitles(t *testing.T, want ...string) {
	t.Helper()
	log, err := spawnlog.Read(s.fs, agent)
	if err != nil {
		t.Fatalf("reading the spawn-log: %v", err)
	}
	var got []string
	ids := map[int]bool{}
	for _, r := range log.Records {
		got = append(got, r.Title)
		if ids[r.ID] {
			t.Errorf("id %d is in the spawn-log twice", r.ID)
		}
		ids[r.ID] = true
	}
	g, w := slices.Clone(got), slices.Clone(want)
	slices.Sort(g)
	slices.Sort(w)
	if !slices.Equal(g, w) {
		t.Fatalf("the spawn-log holds %q; want %q, each once", got, want)
	}
}

// before fails unless record a is before record b in the spawn-log.
func (s *site) before(t *testing.T, a, b string) {
	t.Helper()
	got := s.titles(t)
	if i, j := slices.Index(got, a), slices.Index(got, b); i < 0 || j < 0 || i > j {
		t.Fatalf("the spawn-log holds %q; want %q before %q", got, a, b)
	}
}

// removeAll removes name and everything under it from fsys; a missing
// name is not an error.
func removeAll(fsys vfs.FS, name string) error {
	fi, err := fsys.Stat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if fi.IsDir() {
		ents, err := fsys.ReadDir(name)
		if err != nil {
			return err
		}
		for _, e := range ents {
			if err := removeAll(fsys, name+"/"+e.Name()); err != nil {
				return err
			}
		}
	}
	return fsys.Remove(name)
}
