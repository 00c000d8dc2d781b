package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A value flag given twice is a usage error (exit 1) that touches nothing,
// never the last one silently winning: `unlock --force --agent a --agent b`
// must not remove b's lock when the operator meant a's.
func TestRepeatedValueFlagIsAUsageError(t *testing.T) {
	c := binClasses[0]
	home := t.TempDir()
	for _, agent := range []string{"a", "b"} {
		if r := c.run(t, home, "dispatch", "open", "--agent", agent); r.code != 0 {
			t.Fatalf("open %s: exit %d, stderr %q", agent, r.code, r.stderr)
		}
		if err := os.WriteFile(filepath.Join(home, "agents", agent, "spawn-log.json.lock"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := treeOf(t, home)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"dispatch", "unlock", "--force", "--agent", "a", "--agent", "b"}, `pa: --agent is given twice ("a", then "b"): give it once` + "\n"},
		{[]string{"dispatch", "unlock", "--force", "--agent=a", "--agent=b"}, `pa: --agent is given twice ("a", then "b"): give it once` + "\n"},
		{[]string{"dispatch", "open", "--agent", "a", "--title", "x", "--title=y", "--wait", "0"}, `pa: --title is given twice ("x", then "y"): give it once` + "\n"},
		{[]string{"dispatch", "list", "--home", home}, `pa: --home is given twice (` + strconv.Quote(home) + `, then ` + strconv.Quote(home) + `): give it once` + "\n"},
		{[]string{"board", "check", "--stale-window", "1s", "--stale-window", "2s"}, `pa: --stale-window is given twice ("1s", then "2s"): give it once` + "\n"},
	} {
		r := c.run(t, home, tc.args...)
		if r.code != exitUsage || r.stdout != "" || r.stderr != tc.want {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 and %q", strings.Join(tc.args, " "), r.code, r.stdout, r.stderr, tc.want)
		}
		if after := treeOf(t, home); after != before {
			t.Fatalf("%s changed the estate:\n%s\nwant\n%s", strings.Join(tc.args, " "), after, before)
		}
	}
	// A title that is itself "--title" (given as --title=VALUE) is a value,
	// not a second flag.
	if r := c.run(t, home, "dispatch", "list", "--agent=--agent"); strings.Contains(r.stderr, "twice") {
		t.Errorf("list --agent=--agent: stderr %q, want no repeat", r.stderr)
	}
}

// After "--" the words are arguments, not flags: `fs probe -- --home=x`
// probes a folder named "--home=x" (missing here), and is no repeat of
// the --home given before.
func TestRepeatedFlagsStopAtDoubleDash(t *testing.T) {
	var o, e bytes.Buffer
	code := run(context.Background(), []string{"--home", t.TempDir(), "fs", "probe", "--", "--home=x"}, &o, &e)
	if strings.Contains(e.String(), "twice") || !strings.Contains(e.String(), "--home=x") {
		t.Errorf("fs probe -- --home=x: exit %d, stderr %q; want the probe's own error naming the folder --home=x, no repeat", code, e.String())
	}
}
