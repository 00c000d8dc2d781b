package conformance

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/estate/estatetest"
)

// The builds of pa before the directory publish (60bc6b5^) and this one,
// on one estate without hard links: a file lock and a directory lock at
// the lock name exclude each other, and neither build ever removes the
// other's lock but as the spec allows. conformance/mixedbuild builds the
// earlier binaries (its shipped and its pafault build) from git and runs
// this test with PA_EARLIER_PA and PA_EARLIER_PA_FAULT naming them;
// without them it is skipped (go test ./... has no earlier build).
func TestEarlierBuildMeetsThisOne(t *testing.T) {
	earlier, earlierFault := os.Getenv("PA_EARLIER_PA"), os.Getenv("PA_EARLIER_PA_FAULT")
	if earlier == "" || earlierFault == "" {
		t.Skip("no earlier build: run conformance/mixedbuild")
	}
	now, nowFault := binaries(t)
	// No hard links: this build publishes a directory, the earlier one
	// creates its lock exclusively.
	noLinks := []string{"PA_FAULT_LINK_ERRNO=ENOTSUP"}
	run := func(t *testing.T, home, bin string, env []string, args ...string) result {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"--home", home}, args...)...)
		cmd.Env = append(cleanEnv(), env...)
		return runCmd(t, cmd)
	}
	newHome := func(t *testing.T) (home, lock string) {
		home = t.TempDir()
		if err := os.MkdirAll(filepath.Join(home, "agents", "demo"), 0o755); err != nil {
			t.Fatal(err)
		}
		return home, filepath.Join(home, filepath.FromSlash(lockName))
	}
	open := []string{"dispatch", "open", "--agent", agent, "--wait", "0"}
	// killAt runs an open of bin (who's), with env, killed at step: it
	// must not exit 0.
	killAt := func(t *testing.T, home, who, bin string, env []string, step string) {
		t.Helper()
		if r := run(t, home, bin, append(slices.Clip(env), "PA_FAULT_STEP="+step), open...); r.code == 0 {
			t.Fatalf("%s open, to be killed at %s, exited 0", who, step)
		}
	}
	// openAfter runs this build's open (what) on the estate a killed open
	// left, wants id 1 and say in its stderr (want tells what that is),
	// then nothing in the agent's folder but the board and the spawn-log.
	openAfter := func(t *testing.T, home, what, say, want string) {
		t.Helper()
		if r := run(t, home, nowFault, noLinks, open...); r.code != 0 || r.stdout != "1\n" || !strings.Contains(r.stderr, say) {
			t.Fatalf("%s: exit %d, stdout %q, stderr %q; want %s", what, r.code, r.stdout, r.stderr, want)
		}
		wantOnly(t, home)
	}
	const broken = "broken, as its holder is provably dead"

	// A directory lock left by this build's writer, killed while it held
	// it: the earlier build blocks on it (a directory at the lock name is
	// not a lock to it), says so, and removes nothing, not even with
	// --force; this build breaks it at once.
	t.Run("directory-lock-to-the-earlier-build", func(t *testing.T) {
		home, lock := newHome(t)
		killAt(t, home, "this build's", nowFault, noLinks, "hold:read")
		before := markerOf(t, lock)
		r := run(t, home, earlier, nil, open...)
		if r.code != 2 || !strings.Contains(r.stderr, "is not a regular file (a directory") {
			t.Errorf("the earlier open: exit %d, stderr %q; want exit 2, blocked by a directory at the lock name", r.code, r.stderr)
		}
		r = run(t, home, earlier, nil, "dispatch", "unlock", "--force", "--agent", agent)
		if r.code == 0 || !strings.Contains(r.stderr, "is a directory") {
			t.Errorf("the earlier unlock --force: exit %d, stderr %q; want a refusal naming the directory", r.code, r.stderr)
		}
		if r := run(t, home, earlier, nil, "board", "check", "--agent", agent); r.code != 2 {
			t.Errorf("the earlier board check: exit %d; want 2, the directory reported", r.code)
		}
		if !bytes.Equal(markerOf(t, lock), before) {
			t.Fatal("the earlier build changed the directory lock")
		}
		openAfter(t, home, "this build's open", broken, "the dead directory lock broken and id 1")
	})

	// A file lock left by the earlier build's writer, killed while it held
	// it (its exclusive create, with no hard links): this build reads and
	// judges it as the spec says and breaks it at once.
	t.Run("file-lock-to-this-build", func(t *testing.T) {
		home, _ := newHome(t)
		killAt(t, home, "the earlier", earlierFault, noLinks, "hold:read")
		openAfter(t, home, "this build's open", broken, "the dead file lock broken and id 1")
	})

	// An empty file lock, the earlier build's writer killed between its
	// exclusive create and its write: to this build it is a block (an
	// earlier process may still be writing it), never broken, until
	// unlock --force clears it.
	t.Run("empty-file-lock-blocks-this-build", func(t *testing.T) {
		home, lock := newHome(t)
		killAt(t, home, "the earlier", earlierFault, noLinks, "acquire:opened")
		if fi, err := os.Stat(lock); err != nil || fi.Size() != 0 || !fi.Mode().IsRegular() {
			t.Fatalf("the earlier build left %v (%v); want an empty file lock", fi, err)
		}
		if r := run(t, home, now, nil, open...); r.code != 2 || !strings.Contains(r.stderr, "is an empty lock") {
			t.Fatalf("this build's open: exit %d, stderr %q; want exit 2 naming the empty lock", r.code, r.stderr)
		}
		if r := run(t, home, now, nil, "dispatch", "unlock", "--force", "--agent", agent); r.code != 0 {
			t.Fatalf("this build's unlock --force: exit %d, stderr %q", r.code, r.stderr)
		}
		openAfter(t, home, "this build's open after unlock --force", "", "id 1")
	})
}

// markerOf reads the one marker of the directory lock at lock.
func markerOf(t *testing.T, lock string) []byte {
	t.Helper()
	ents, err := os.ReadDir(lock)
	if err != nil || len(ents) != 1 {
		t.Fatalf("the directory lock holds %v (%v); want one marker", ents, err)
	}
	b, err := os.ReadFile(filepath.Join(lock, ents[0].Name()))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wantOnly fails unless the agent's folder of home holds the spawn-log and
// the board only (its lock's incident log aside: a break's or a forced
// unlock's row is no leftover of a step).
func wantOnly(t *testing.T, home string) {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(home, "agents", "demo"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, de := range ents {
		if !estatetest.IsIncidentLog(de.Name()) { // a break's or a force's row: no leftover
			got = append(got, de.Name())
		}
	}
	if strings.Join(got, " ") != "board spawn-log.json" {
		t.Errorf("the agent's folder holds %q; want the board and the spawn-log only", got)
	}
}
