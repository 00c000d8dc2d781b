package conformance

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/spawnlog"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/nolinkfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
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
// the agent's folder made), seen through the case's class.
type site struct {
	class Class
	root  string // the folder on disk: the estate's home
	shim  bool   // NoLinks through nolinkfs (false: the volume's own)
	fs    vfs.FS // the class's view of root
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
	s := &site{class: c, root: dir, shim: v.shim(c), fs: o}
	if s.shim {
		s.fs = nolinkfs.New(o, syscall.ENOTSUP)
	}
	return s
}

// path is the on-disk path of the slash name under the estate.
func (s *site) path(name string) string { return filepath.Join(s.root, filepath.FromSlash(name)) }

// writeRaw puts bytes under a name, as another process (or a crash) left
// them.
func (s *site) writeRaw(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.WriteFile(s.path(name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func (s *site) readRaw(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(s.path(name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (s *site) exists(name string) bool {
	_, err := os.Lstat(s.path(name))
	return err == nil
}

// chtimes sets a file's times on the volume (the file time of a lock).
func (s *site) chtimes(t *testing.T, name string, at time.Time) {
	t.Helper()
	if err := os.Chtimes(s.path(name), at, at); err != nil {
		t.Fatal(err)
	}
}

// ls lists the agent's folder, sorted.
func (s *site) ls(t *testing.T) []string {
	t.Helper()
	ents, err := os.ReadDir(s.path(agentDir))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range ents {
		names = append(names, de.Name())
	}
	slices.Sort(names)
	return names
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
