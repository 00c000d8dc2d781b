package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// completions asks the real binary for the completions of line, as a shell
// does: pa runs with COMP_LINE and COMP_POINT set and prints one candidate a
// line. PA_HOME is home.
func completions(t *testing.T, home, line string) []string {
	t.Helper()
	cmd := exec.Command(paBin)
	cmd.Env = append(os.Environ(), "COMP_LINE="+line, "COMP_POINT="+strconv.Itoa(len(line)), "PA_HOME="+home)
	r := runCmd(t, cmd)
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("completing %q: exit %d, stderr %q; want exit 0 and no stderr", line, r.code, r.stderr)
	}
	out := strings.Fields(r.stdout)
	slices.Sort(out)
	return out
}

// pa answers completions of commands, flags and agent names (from the
// estate in PA_HOME, valid names only), and runs no command meanwhile.
func TestCompletionAnswers(t *testing.T) {
	home := t.TempDir()
	for _, a := range []string{"demo", "deploy", ".hidden"} {
		if err := os.MkdirAll(filepath.Join(home, "agents", a), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"pa dispatch un", []string{"unlock"}},
		{"pa dispatch open --ag", []string{"--agent"}},
		{"pa dispatch open --agent ", []string{"demo", "deploy"}},
		{"pa board check --agent de", []string{"demo", "deploy"}},
		{"pa dispatch unlock --agent dem", []string{"demo"}},
		{"pa completion ", []string{"bash", "fish", "zsh"}},
	} {
		if got := completions(t, home, tc.line); !slices.Equal(got, tc.want) {
			t.Errorf("completing %q: got %q, want %q", tc.line, got, tc.want)
		}
	}
	// Completing open's flags records nothing.
	completions(t, home, "pa dispatch open --agent demo ")
	if _, err := os.Stat(filepath.Join(home, "agents", "demo", "spawn-log.json")); !os.IsNotExist(err) {
		t.Errorf("a completion request wrote a spawn-log (stat: %v)", err)
	}
}

// TestCompletionFollowsHomeOnTheLine: the agents offered after --agent are
// those of the estate the line names with --home (as DIR, =DIR, or ~/DIR
// with the user's home folder), not those of $PA_HOME; without --home on
// the line, $PA_HOME's.
func TestCompletionFollowsHomeOnTheLine(t *testing.T) {
	env := t.TempDir() // $PA_HOME
	user := t.TempDir()
	typed := filepath.Join(user, "est")
	for _, d := range []string{filepath.Join(env, "agents", "from-env"), filepath.Join(typed, "agents", "typed")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"pa --home " + typed + " dispatch open --agent ", []string{"typed"}},
		{"pa --home=" + typed + " board check --agent ", []string{"typed"}},
		{"pa --home ~/est dispatch unlock --agent ", []string{"typed"}},
		{"pa --home /nowhere --home " + typed + " dispatch list --agent ", []string{"typed"}},
		{"pa dispatch open --agent ", []string{"from-env"}},
		// The shell leaves the ~ of --home=~/DIR as it is: pa would take
		// a folder named ~ (none here), not the user's home folder.
		{"pa --home=~/est dispatch open --agent ", nil},
		// Only the words before the cursor count: a --home after it is
		// not on the line yet.
		{"pa --home " + typed + " dispatch open --agent |--home /nowhere --json", []string{"typed"}},
	} {
		cmd := exec.Command(paBin)
		line, point := tc.line, len(tc.line)
		if i := strings.Index(line, "|"); i >= 0 {
			line, point = line[:i]+line[i+1:], i
		}
		cmd.Env = append(os.Environ(), "COMP_LINE="+line, "COMP_POINT="+strconv.Itoa(point), "PA_HOME="+env, "HOME="+user)
		r := runCmd(t, cmd)
		got := strings.Fields(r.stdout)
		slices.Sort(got)
		if r.code != 0 || !slices.Equal(got, tc.want) {
			t.Errorf("completing %q: exit %d, got %q, want %q", tc.line, r.code, got, tc.want)
		}
	}
}

// shellOrSkip returns the path of a shell, or skips the test where it is not
// installed; under CI (CI=true, where .ci/run installs bash, zsh and fish) a
// missing shell fails the test.
func shellOrSkip(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed, and CI must test its completion (.ci/run installs it)", name)
		}
		t.Skipf("%s is not installed", name)
	}
	return p
}

// The code pa completion prints loads in each shell, names this binary, and
// makes the shell complete pa's commands through it.
func TestCompletionCodeInTheShells(t *testing.T) {
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "agents", "demo"), 0o755); err != nil {
		t.Fatal(err)
	}
	code := func(shell string) string {
		r := binClasses[0].run(t, home, "completion", shell)
		if r.code != 0 || !strings.Contains(r.stdout, shellQuote(paBin)) {
			t.Fatalf("pa completion %s: exit %d, stdout %q; want exit 0 and the code naming %s", shell, r.code, r.stdout, paBin)
		}
		f := filepath.Join(t.TempDir(), "pa."+shell)
		if err := os.WriteFile(f, []byte(r.stdout), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	shell := func(t *testing.T, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(shellOrSkip(t, name), args...)
		cmd.Env = append(os.Environ(), "PA_HOME="+home, "HOME="+t.TempDir())
		r := runCmd(t, cmd)
		if r.code != 0 {
			t.Fatalf("%s %q: exit %d, stdout %q, stderr %q", name, args, r.code, r.stdout, r.stderr)
		}
		return r.stdout
	}
	t.Run("bash", func(t *testing.T) {
		got := shell(t, "bash", "--norc", "-c", "source "+code("bash")+" && complete -p pa")
		if want := "complete -o bashdefault -o default -C " + shellQuote(paBin) + " pa"; !strings.Contains(got, "-C "+shellQuote(paBin)+" pa") {
			t.Errorf("bash: complete -p pa printed %q; want %q", got, want)
		}
	})
	t.Run("zsh", func(t *testing.T) {
		got := shell(t, "zsh", "-f", "-c", "autoload -U compinit && compinit -u && source "+code("zsh")+" && print -r -- ${_comps[pa]}")
		if strings.TrimSpace(got) == "" {
			t.Errorf("zsh: no completion function registered for pa (_comps[pa] is empty)")
		}
	})
	t.Run("fish", func(t *testing.T) {
		got := shell(t, "fish", "--no-config", "-c", "source "+code("fish")+"; complete -C'pa dispatch un'; complete -C'pa dispatch open --agent '")
		if !strings.Contains(got, "unlock") || !strings.Contains(got, "demo") {
			t.Errorf("fish: complete -C printed %q; want unlock and the agent demo", got)
		}
	})
}

// shellQuote survives a quote in the path, in every shell.
func TestShellQuote(t *testing.T) {
	for _, name := range []string{"bash", "zsh", "fish"} {
		if _, err := exec.LookPath(name); err != nil {
			continue
		}
		const s = `/tmp/a b/it's "pa"`
		out, err := exec.Command(name, "-c", "printf %s "+shellQuote(s)).Output()
		if err != nil || string(out) != s {
			t.Errorf("%s: %s printed %q (%v); want %q", name, shellQuote(s), out, err, s)
		}
	}
}
