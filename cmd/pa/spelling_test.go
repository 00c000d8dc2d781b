package main

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/spawnlog"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// volumeEnv names a folder on a mounted volume for TestAgentSpellings
// (conformance/volumes sets it to a folder of each volume it mounts);
// unset, the test runs in a temp folder.
const volumeEnv = "PA_TEST_VOLUME_DIR"

// spellingDir is a fresh folder on the volume under test, and whether
// that volume ignores case (a folder made as X is found as x).
func spellingDir(t *testing.T) (string, bool) {
	t.Helper()
	dir := t.TempDir()
	if v := os.Getenv(volumeEnv); v != "" {
		d, err := os.MkdirTemp(v, "spelling-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.RemoveAll(d) })
		dir = d
	}
	probe := filepath.Join(dir, "X")
	if err := os.Mkdir(probe, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := os.Stat(filepath.Join(dir, "x"))
	if err := os.Remove(probe); err != nil {
		t.Fatal(err)
	}
	return dir, err == nil
}

// On a volume that ignores case (exFAT, NTFS, APFS by default) agents Log
// and log are one folder: every command given --agent log where agents/Log
// is refuses it (exit 1) with the spelling on disk, before anything is
// written. Listing every agent shows Log, the spelling on disk. On a
// volume that keeps case they are two agents, each with its own records.
func TestAgentSpellings(t *testing.T) {
	c := binClasses[0]
	dir, folds := spellingDir(t)
	home := filepath.Join(dir, "estate")
	t.Logf("%s: ignores case: %v", dir, folds)
	if r := c.run(t, home, "dispatch", "open", "--agent", "Log", "--title", "one"); r.code != 0 || r.stdout != "1\n" {
		t.Fatalf("open --agent Log: exit %d, %q %q", r.code, r.stdout, r.stderr)
	}
	if !folds {
		if r := c.run(t, home, "dispatch", "open", "--agent", "log", "--title", "two"); r.code != 0 || r.stdout != "1\n" {
			t.Fatalf("open --agent log beside Log: exit %d, %q %q; want id 1 of an agent of its own", r.code, r.stdout, r.stderr)
		}
		r := c.run(t, home, "dispatch", "list", "--agent", "log")
		if r.code != 0 || !strings.HasPrefix(r.stdout, "log\t1\t") || strings.Count(r.stdout, "\n") != 1 {
			t.Errorf("list --agent log: exit %d, %q; want log's one record", r.code, r.stdout)
		}
		return
	}
	before := estatetest.Snapshot(t, home)
	want := "pa: agent \"log\" is spelled \"Log\" on disk (agents/Log): this volume ignores case; use --agent Log\n"
	for _, args := range [][]string{
		{"dispatch", "open", "--agent", "log", "--title", "two"},
		{"dispatch", "list", "--agent", "log"},
		{"board", "check", "--agent", "log"},
		{"board", "repair", "--agent", "log"},
		{"dispatch", "unlock", "--agent", "log"},
		{"dispatch", "unlock", "--force", "--agent", "LOG"},
	} {
		w := want
		if args[len(args)-1] == "LOG" {
			w = strings.Replace(w, `"log"`, `"LOG"`, 1)
		}
		if r := c.run(t, home, args...); r.code != exitUsage || r.stdout != "" || r.stderr != w {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 1 and %q", args, r.code, r.stdout, r.stderr, w)
		}
	}
	if r := runCmd(t, c.command(home, []string{"PA_AGENT=log"}, "dispatch", "list")); r.code != exitUsage || r.stderr != want {
		t.Errorf("PA_AGENT=log list: exit %d, stderr %q; want exit 1 and %q", r.code, r.stderr, want)
	}
	if after := estatetest.Snapshot(t, home); !maps.Equal(before, after) {
		t.Errorf("a refused command changed the estate: %q", after)
	}
	r := c.run(t, home, "dispatch", "list")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "Log\t1\t") || strings.Count(r.stdout, "\n") != 1 {
		t.Errorf("list: exit %d, %q; want Log's one record", r.code, r.stdout)
	}
}

// Writers of both spellings at once on a fresh estate of a volume that
// ignores case: the writers of the spelling whose folder was made first
// all record, each with an id of its own and on the board; every other is
// refused (exit 1, its line naming the spelling on disk) and writes
// nothing. Before the check two such writers shared one lock under two
// names: locks were lost and the board torn (and exFAT's FUSE daemon
// died).
func TestAgentSpellingsWritersAtOnce(t *testing.T) {
	c := binClasses[0]
	dir, folds := spellingDir(t)
	if !folds {
		t.Skipf("%s keeps case: Log and log are two agents there (TestAgentSpellings)", dir)
	}
	home := filepath.Join(dir, "estate")
	const each = 4
	type writer struct {
		agent string
		cmd   *exec.Cmd
		out   *strings.Builder
		errs  *strings.Builder
	}
	var writers []writer
	for i := range 2 * each {
		agent := []string{"Log", "log"}[i%2]
		w := writer{agent: agent, cmd: c.command(home, nil, "dispatch", "open", "--agent", agent, "--title", agent, "--wait", "60s"),
			out: &strings.Builder{}, errs: &strings.Builder{}}
		w.cmd.Stdout, w.cmd.Stderr = w.out, w.errs
		if err := w.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		writers = append(writers, w)
	}
	won := map[string]int{}
	for _, w := range writers {
		err := w.cmd.Wait()
		switch code := w.cmd.ProcessState.ExitCode(); {
		case code == 0:
			won[w.agent]++
		case code == exitUsage && strings.Contains(w.errs.String(), " on disk (agents/"):
		default:
			t.Errorf("open --agent %s: %v, stdout %q, stderr %q; want it recorded or refused for its spelling", w.agent, err, w.out, w.errs)
		}
	}
	if len(won) != 1 || slices.Collect(maps.Values(won))[0] != each {
		t.Fatalf("writers recorded by spelling: %v; want the %d of one spelling", won, each)
	}
	entries, err := os.ReadDir(filepath.Join(home, "agents"))
	if err != nil || len(entries) != 1 {
		t.Fatalf("agents/ holds %v (%v); want one folder", entries, err)
	}
	agent := entries[0].Name()
	o, err := osfs.New(home)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	log, err := spawnlog.Read(o, agent)
	if err != nil {
		t.Fatal(err)
	}
	b, err := board.Read(o, agent)
	if err != nil {
		t.Fatal(err)
	}
	var ids, onBoard []int
	for _, r := range log.Records {
		ids = append(ids, r.ID)
		if r.Agent != agent {
			t.Errorf("record %d is of agent %q in agents/%s", r.ID, r.Agent, agent)
		}
	}
	for _, it := range b.Items {
		onBoard = append(onBoard, it.DispatchID)
	}
	slices.Sort(onBoard)
	if want := []int{1, 2, 3, 4}; !slices.Equal(ids, want) || !slices.Equal(onBoard, want) {
		t.Errorf("spawn-log ids %v, board ids %v; want %v in each", ids, onBoard, want)
	}
}

// An agent name valid by pa's rules that the volume refuses as a folder
// name (a ':' on exFAT) is a usage error (exit 1) that says so, lists the
// characters such volumes refuse and makes no folder for the agent; where
// the volume holds the name, the open records as any other.
func TestAgentSpellingsNameTheVolumeRefuses(t *testing.T) {
	c := binClasses[0]
	dir, _ := spellingDir(t)
	const agent = "a:b"
	probe := filepath.Join(dir, agent)
	refuses := os.Mkdir(probe, 0o755) != nil
	if !refuses {
		if err := os.Remove(probe); err != nil {
			t.Fatal(err)
		}
	}
	home := filepath.Join(dir, "estate")
	r := c.run(t, home, "dispatch", "open", "--agent", agent, "--title", "one")
	t.Logf("%s: refuses %q: %v", dir, agent, refuses)
	if !refuses {
		if r.code != 0 || r.stdout != "1\n" {
			t.Fatalf("open --agent %s: exit %d, %q %q; want id 1", agent, r.code, r.stdout, r.stderr)
		}
		return
	}
	lead := `pa: the volume refused agent "a:b" as a folder name (agents/a:b): `
	tail := `; exFAT, FAT and NTFS hold none of : * ? " < > | in a name` + "\n"
	if r.code != exitUsage || r.stdout != "" || !strings.HasPrefix(r.stderr, lead) || !strings.HasSuffix(r.stderr, tail) {
		t.Errorf("open --agent %s: exit %d, stdout %q, stderr %q; want exit 1 and %q...%q", agent, r.code, r.stdout, r.stderr, lead, tail)
	}
	entries, err := os.ReadDir(filepath.Join(home, "agents"))
	if err != nil || len(entries) != 0 {
		t.Errorf("agents/ after the refusal: %v, %v; want it empty", entries, err)
	}
}
