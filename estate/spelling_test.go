package estate_test

import (
	"errors"
	"io/fs"
	"maps"
	"testing"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
	"github.com/pa-toolkit/pa/vfs/vfstest"
)

// folding is a fresh estate on a volume that ignores case, its folder on
// disk and the FS.
func folding(t *testing.T) (string, vfs.FS) {
	t.Helper()
	dir := t.TempDir()
	o, err := osfs.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = o.Close() })
	return dir, vfstest.FoldCase(o)
}

// On a volume that ignores case a name that reaches agents/Log spelled
// otherwise is refused, naming both spellings; the spelling on disk, a new
// agent and every agent of another name pass.
func TestCheckSpellingFoldingVolume(t *testing.T) {
	dir, fsys := folding(t)
	if err := estate.MakeAgentDir(fsys, "Log"); err != nil {
		t.Fatal(err)
	}
	if err := estate.MakeAgentDir(fsys, "other"); err != nil {
		t.Fatal(err)
	}
	for _, agent := range []string{"Log", "other", "new", "Lo"} {
		if err := estate.CheckSpelling(fsys, agent); err != nil {
			t.Errorf("CheckSpelling(%q) = %v, want nil", agent, err)
		}
	}
	before := estatetest.Snapshot(t, dir)
	for _, agent := range []string{"log", "LOG", "lOg"} {
		for name, check := range map[string]func(vfs.FS, string) error{"CheckSpelling": estate.CheckSpelling, "MakeAgentDir": estate.MakeAgentDir} {
			err := check(fsys, agent)
			var se *estate.SpellingError
			if !errors.As(err, &se) || se.Agent != agent || se.OnDisk != "Log" || !errors.Is(err, estate.ErrSpelling) {
				t.Errorf("%s(%q) = %v, want a *SpellingError of %q spelled Log", name, agent, err, agent)
			}
		}
	}
	if want := `agent "log" is spelled "Log" on disk (agents/Log)`; estate.CheckSpelling(fsys, "log").Error() != want {
		t.Errorf("Error() = %q, want %q", estate.CheckSpelling(fsys, "log").Error(), want)
	}
	if after := estatetest.Snapshot(t, dir); !maps.Equal(before, after) {
		t.Errorf("a refused name changed the estate: %q", after)
	}
}

// On a volume that keeps case, Log and log are two folders, each listed
// under its own name: two agents, both allowed.
func TestCheckSpellingCaseSensitiveVolume(t *testing.T) {
	e := estatetest.New(t, estatetest.Classes[0])
	for _, agent := range []string{"Log", "log"} {
		if err := estate.MakeAgentDir(e.FS, agent); err != nil {
			t.Fatalf("MakeAgentDir(%q) = %v", agent, err)
		}
	}
	for _, agent := range []string{"Log", "log", "LOG"} {
		if err := estate.CheckSpelling(e.FS, agent); err != nil {
			t.Errorf("CheckSpelling(%q) = %v, want nil", agent, err)
		}
	}
	if agents, _ := estate.Agents(e.FS); len(agents) != 2 {
		t.Errorf("agents %q, want Log and log", agents)
	}
}

// A folder listed under no name that folds to the one given, yet that name
// reaches it (a volume folding as Go does not), is found by its file key,
// or refused with no spelling when the FS has no keys.
func TestCheckSpellingSameFile(t *testing.T) {
	_, fsys := folding(t)
	if err := estate.MakeAgentDir(fsys, "Straße"); err != nil {
		t.Fatal(err)
	}
	aliased := alias{fsys, map[string]string{"agents/STRASSE": "agents/Straße"}}
	var se *estate.SpellingError
	if err := estate.CheckSpelling(aliased, "STRASSE"); !errors.As(err, &se) || se.OnDisk != "Straße" {
		t.Errorf("CheckSpelling(STRASSE) = %v, want it spelled Straße on disk", err)
	}
	if err := estate.CheckSpelling(noKeys{aliased}, "STRASSE"); !errors.As(err, &se) || se.OnDisk != "" {
		t.Errorf("CheckSpelling(STRASSE) without file keys = %v, want no spelling", err)
	}
}

// alias is an FS that takes some names for others, as a volume's folding
// may.
type alias struct {
	vfs.FS
	to map[string]string
}

func (a alias) name(n string) string {
	if to, ok := a.to[n]; ok {
		return to
	}
	return n
}

func (a alias) Lstat(n string) (fs.FileInfo, error) { return a.FS.Lstat(a.name(n)) }
func (a alias) Stat(n string) (fs.FileInfo, error)  { return a.FS.Stat(a.name(n)) }

// noKeys gives stat data with no file key.
type noKeys struct{ a alias }

func (n noKeys) Stat(name string) (fs.FileInfo, error)  { return withoutKey(n.a.Stat(name)) }
func (n noKeys) Lstat(name string) (fs.FileInfo, error) { return withoutKey(n.a.Lstat(name)) }

func withoutKey(fi fs.FileInfo, err error) (fs.FileInfo, error) {
	if err != nil {
		return nil, err
	}
	return keyless{fi}, nil
}

func (n noKeys) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	return n.a.OpenFile(name, flag, perm)
}
func (n noKeys) ReadDir(name string) ([]fs.DirEntry, error) { return n.a.ReadDir(name) }
func (n noKeys) Mkdir(name string, perm fs.FileMode) error  { return n.a.Mkdir(name, perm) }
func (n noKeys) Link(oldname, newname string) error         { return n.a.Link(oldname, newname) }
func (n noKeys) Rename(oldname, newname string) error       { return n.a.Rename(oldname, newname) }
func (n noKeys) Remove(name string) error                   { return n.a.Remove(name) }

type keyless struct{ fs.FileInfo }

func (keyless) Sys() any { return nil }
