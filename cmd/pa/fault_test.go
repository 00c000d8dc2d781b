package main

import (
	"fmt"
	"strings"
	"testing"
)

// The shipped build has no fault injection: it ignores PA_FAULT_* and runs
// on the real OS. The pafault build refuses an unknown errno or step.
func TestFaultInjectionOnlyInThePafaultBuild(t *testing.T) {
	home := t.TempDir()
	shipped := binClasses[0]
	r := runCmd(t, shipped.command(home, []string{"PA_FAULT_LINK_ERRNO=bogus", "PA_FAULT_STEP=commit:renamed"}, "dispatch", "open", "--agent", "demo"))
	if r.code != 0 || r.stdout != "1\n" {
		t.Errorf("shipped build with PA_FAULT_*: exit %d, stdout %q, stderr %q; want it ignored", r.code, r.stdout, r.stderr)
	}
	for _, env := range []string{"PA_FAULT_LINK_ERRNO=EXDEV", "PA_FAULT_STEP=commit:nowhere"} {
		faulty := binClass{bin: func() string { return paFaultBin }}
		r := runCmd(t, faulty.command(home, []string{env}, "dispatch", "open", "--agent", "demo"))
		if r.code != 1 || !strings.HasPrefix(r.stderr, "pa: ") {
			t.Errorf("pafault build with %s: exit %d, stderr %q; want exit 1", env, r.code, r.stderr)
		}
	}
}

// Every command's --help says what it does, its exit codes and an example;
// pa --version and pa version print the version; pa help [COMMAND] prints
// the same as --help. All exit 0.
func TestHelpAndVersion(t *testing.T) {
	home := t.TempDir()
	c := binClasses[0]
	for _, cmd := range [][]string{{"dispatch", "open"}, {"dispatch", "list"}, {"dispatch", "unlock"}, {"board", "check"}, {"fs", "probe"}, {"completion"}} {
		r := c.run(t, home, append(cmd, "--help")...)
		if r.code != 0 || !strings.Contains(r.stdout, "Exit codes:") || !strings.Contains(r.stdout, "Example:") ||
			!strings.Contains(r.stdout, "pa "+strings.Join(cmd, " ")) {
			t.Errorf("%s --help: exit %d, stdout %q; want exit 0 with exit codes and an example", cmd, r.code, r.stdout)
		}
	}
	if r := c.run(t, home, "--help"); r.code != 0 || !strings.Contains(r.stdout, "Exit codes:") {
		t.Errorf("pa --help: exit %d, stdout %q", r.code, r.stdout)
	}
	for _, args := range [][]string{{"--version"}, {"version"}} {
		if r := c.run(t, home, args...); r.code != 0 || r.stdout != fmt.Sprintf("pa %s\n", version) {
			t.Errorf("pa %s: exit %d, stdout %q; want pa %s", args[0], r.code, r.stdout, version)
		}
	}
	// pa help [COMMAND...] is pa [COMMAND...] --help.
	for _, cmd := range [][]string{{}, {"dispatch"}, {"dispatch", "open"}, {"board", "check"}} {
		want := c.run(t, home, append(cmd, "--help")...)
		if r := c.run(t, home, append([]string{"help"}, cmd...)...); r.code != 0 || r.stdout != want.stdout || r.stdout == "" {
			t.Errorf("pa help %s: exit %d, stdout %q; want the same as --help: %q", cmd, r.code, r.stdout, want.stdout)
		}
	}
	if r := c.run(t, home, "help", "nope"); r.code != 1 || !strings.HasPrefix(r.stderr, "pa: help nope: ") {
		t.Errorf("pa help nope: exit %d, stderr %q; want exit 1", r.code, r.stderr)
	}
	// The groups say what they are about, beyond their one-line summary.
	for group, want := range map[string]string{"dispatch": "A dispatch is one record in agents/<agent>/spawn-log.json", "board": "Each agent's board, agents/<agent>/board/board.json"} {
		if r := c.run(t, home, group, "--help"); r.code != 0 || !strings.Contains(r.stdout, want) {
			t.Errorf("pa %s --help: exit %d, stdout %q; want %q in it", group, r.code, r.stdout, want)
		}
	}
}
