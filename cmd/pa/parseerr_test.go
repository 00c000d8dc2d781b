package main

import (
	"strings"
	"testing"
)

// kong's and the time package's parse errors are pa's own lines: one line
// on stderr, "pa: ", exit 1, naming what the flag wants and the help of the
// command the args got to.
func TestParseErrorsInPlainWords(t *testing.T) {
	c := binClasses[0]
	home := t.TempDir()
	const commands = "dispatch open, dispatch list, dispatch unlock, dispatch incidents, board check, board repair, fs probe, help, completion, version"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"dispatch", "open", "--agent", "demo", "--wait", "-1s"}, "--wait -1s: want a duration of 0 or more"},
		{[]string{"dispatch", "open", "--wait", "-1m", "--agent", "demo"}, "--wait -1m: want a duration of 0 or more"},
		{[]string{"dispatch", "open", "--agent", "demo", "--wait=-1s"}, "--wait -1s: want a duration of 0 or more"},
		{[]string{"dispatch", "open", "--agent", "demo", "--wait", "10"}, "--wait 10: want a duration with a unit, such as 10s or 500ms"},
		{[]string{"dispatch", "open", "--agent", "demo", "--wait", "soon"}, "--wait soon: want a duration, such as 10s or 500ms"},
		{[]string{"dispatch", "open", "--agent", "demo", "--wait"}, "--wait needs a value (a duration, such as 10s or 500ms)"},
		{[]string{"dispatch", "open", "--wait", "--json", "--agent", "demo"}, "--wait needs a value (a duration, such as 10s or 500ms), not the flag --json"},
		{[]string{"board", "check", "--stale-window", "-1s"}, "--stale-window -1s: want a duration above 0"},
		{[]string{"board", "check", "--stale-window", "0"}, "--stale-window 0: want a duration above 0"},
		{[]string{"board", "check", "--stale-window", "60"}, "--stale-window 60: want a duration with a unit, such as 10s or 500ms"},
		{[]string{"board", "check", "--agent"}, "--agent needs a value (an agent's name)"},
		{[]string{"dispatch", "list", "--agent", "--json"},
			"--agent needs a value (an agent's name), not the flag --json; a value that starts with '-' is written --agent=VALUE"},
		{[]string{"dispatch", "open", "--agent", "demo", "--title"}, "--title needs a value (the dispatch's title)"},
		{[]string{"completion", "tcsh"}, `completion: want bash, zsh or fish, not "tcsh"`},
		{[]string{"completion"}, "completion: want bash, zsh or fish (see pa completion --help)"},
		{[]string{"help", "nosuch"}, `help: no command "nosuch"; the commands are: ` + commands},
		{[]string{"help", "dispatch", "nosuch"}, `help: no command "dispatch nosuch"; the commands are: ` + commands},
		{[]string{"dispatch"}, "dispatch needs a command: open, list, unlock or incidents (see pa dispatch --help)"},
		{[]string{"board"}, "board needs a command: check or repair (see pa board --help)"},
		{[]string{"dispatch", "open"}, "dispatch open needs --agent NAME, or PA_AGENT set to an agent's name (see pa dispatch open --help)"},
		{[]string{"board", "check", "--bogus"}, "unknown flag --bogus (see pa board check --help)"},
	} {
		r := c.run(t, home, tc.args...)
		if want := "pa: " + tc.want + "\n"; r.code != exitUsage || r.stdout != "" || r.stderr != want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 1 and %q", tc.args, r.code, r.stdout, r.stderr, want)
		}
	}
	// A name that starts with '-' is still given as --agent=NAME.
	if r := c.run(t, home, "dispatch", "open", "--agent=-dash", "--wait=0"); r.code != exitOK {
		t.Errorf("--agent=-dash: exit %d, stderr %q; want it recorded", r.code, r.stderr)
	}
	// A value that starts with '-' is still given as --title=VALUE.
	if r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--title=-x", "--json"); r.code != exitOK || !strings.Contains(r.stdout, `"title":"-x"`) {
		t.Errorf("--title=-x: exit %d, stdout %q, stderr %q; want it recorded", r.code, r.stdout, r.stderr)
	}
}

// pa with no command prints its help, as pa --help does, on stderr, and
// exits 1.
func TestNoCommandPrintsTheHelp(t *testing.T) {
	c := binClasses[0]
	help := c.run(t, t.TempDir(), "--help")
	r := c.run(t, t.TempDir())
	if help.code != exitOK || !strings.HasPrefix(help.stdout, "Usage: pa <command>") {
		t.Fatalf("--help: exit %d, stdout %q", help.code, help.stdout)
	}
	if r.code != exitUsage || r.stdout != "" || r.stderr != help.stdout {
		t.Errorf("no command: exit %d, stdout %q, stderr %q; want exit 1 and the help on stderr", r.code, r.stdout, r.stderr)
	}
}
