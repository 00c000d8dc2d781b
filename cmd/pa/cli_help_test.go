package main

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

// commandPaths walks n and every command and group under it in the kong
// model: the words that name each ({} for pa itself).
func commandPaths(t *testing.T, n *kong.Node, path []string) [][]string {
	t.Helper()
	paths := [][]string{path}
	for _, child := range n.Children {
		if child.Type != kong.CommandNode {
			t.Fatalf("pa %s: a %v node under it; walk it too", strings.Join(path, " "), child.Type)
		}
		paths = append(paths, commandPaths(t, child, append(slices.Clone(path), child.Name))...)
	}
	return paths
}

// Every command's and group's --help, pa's own included, says what it does,
// its exit codes and an example (the kong model is walked, so a new command
// is checked too); pa --version and pa version print the version; pa help
// [COMMAND] prints the same as --help. All exit 0.
func TestHelpAndVersion(t *testing.T) {
	home := t.TempDir()
	c := binClasses[0]
	parser, err := newParser(&cli{}, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	paths := commandPaths(t, parser.Model.Node, nil)
	if len(paths) < 12 {
		t.Fatalf("the model has %d commands and groups: %q; want pa, its 8 commands and 3 groups at least", len(paths), paths)
	}
	for _, cmd := range paths {
		r := c.run(t, home, append(cmd, "--help")...)
		if r.code != 0 || !strings.Contains(r.stdout, "Exit codes:") || !strings.Contains(r.stdout, "Example:") ||
			!strings.Contains(r.stdout, strings.Join(append([]string{"pa"}, cmd...), " ")) {
			t.Errorf("pa %s --help: exit %d, stdout %q; want exit 0 with exit codes and an example", strings.Join(cmd, " "), r.code, r.stdout)
		}
	}
	// The binary's version comes from its own build info (a build in a
	// checkout may carry a VCS revision this test binary lacks): one line
	// "pa VERSION", the same from both.
	flagV, cmdV := c.run(t, home, "--version"), c.run(t, home, "version")
	for _, r := range []result{flagV, cmdV} {
		if r.code != 0 || !strings.HasPrefix(r.stdout, "pa ") || len(r.stdout) < 5 || strings.Count(r.stdout, "\n") != 1 || !strings.HasSuffix(r.stdout, "\n") {
			t.Errorf("pa version: exit %d, stdout %q; want one line pa VERSION", r.code, r.stdout)
		}
	}
	if flagV.stdout != cmdV.stdout {
		t.Errorf("pa --version %q, pa version %q; want the same", flagV.stdout, cmdV.stdout)
	}
	// pa help [COMMAND...] is pa [COMMAND...] --help.
	for _, cmd := range [][]string{{}, {"dispatch"}, {"dispatch", "open"}, {"board", "check"}} {
		want := c.run(t, home, append(cmd, "--help")...)
		if r := c.run(t, home, append([]string{"help"}, cmd...)...); r.code != 0 || r.stdout != want.stdout || r.stdout == "" {
			t.Errorf("pa help %s: exit %d, stdout %q; want the same as --help: %q", cmd, r.code, r.stdout, want.stdout)
		}
	}
	if r := c.run(t, home, "help", "nope"); r.code != 1 || !strings.HasPrefix(r.stderr, `pa: help: no command "nope"; the commands are: dispatch open, `) {
		t.Errorf("pa help nope: exit %d, stderr %q; want exit 1", r.code, r.stderr)
	}
	// The groups say what they are about, beyond their one-line summary.
	for group, want := range map[string]string{"dispatch": "A dispatch is one record in agents/<agent>/spawn-log.json", "board": "Each agent's board, agents/<agent>/board/board.json"} {
		if r := c.run(t, home, group, "--help"); r.code != 0 || !strings.Contains(r.stdout, want) {
			t.Errorf("pa %s --help: exit %d, stdout %q; want %q in it", group, r.code, r.stdout, want)
		}
	}
}
