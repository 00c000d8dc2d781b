package main

import (
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// The advice lines quote the agent for a POSIX shell: the expected lines
// are written out whole, not built with the quoting helpers they test.
func TestAdviceLinesQuoteTheAgent(t *testing.T) {
	alive := locking.Holder{PID: 7, State: locking.StateAlive, HasHostname: true, Hostname: "h"}
	dead := locking.Holder{PID: 7, State: locking.StateDead, HasHostname: true, Hostname: "h"}
	for _, tc := range []struct {
		agent, flag string
	}{
		{"a b", "--agent 'a b'"},
		{"-x", "--agent=-x"},
		{"it's", `--agent 'it'\''s'`},
		{"-a b", "--agent='-a b'"},
	} {
		a := advice{pa: "pa", agent: tc.agent}
		if got, want := a.clearWith(alive), "clear it with pa dispatch unlock --force "+tc.flag+", only once the holder's process is gone or stuck, never while it still runs"; got != want {
			t.Errorf("clearWith(alive) for %q:\n%q; want\n%q", tc.agent, got, want)
		}
		if got, want := a.clearWith(dead), "clear it with pa dispatch unlock "+tc.flag; got != want {
			t.Errorf("clearWith(dead) for %q:\n%q; want\n%q", tc.agent, got, want)
		}
		var ee *exitError
		err := a.changed(dead, true)
		if !errors.As(err, &ee) || !strings.HasSuffix(ee.msg, " changed since it was read: nothing removed; run pa dispatch unlock --force "+tc.flag+" again, "+forceWhen) {
			t.Errorf("changed line for %q: %v", tc.agent, err)
		}
		if got := a.notRead(); !strings.HasSuffix(got, ", then run pa dispatch unlock "+tc.flag) {
			t.Errorf("advice for a lock pa cannot read, for %q: %q", tc.agent, got)
		}
	}
}

// plainHome is how the commands of an estate at home start, written out:
// "pa --home HOME" for a folder of plain characters (as t.TempDir gives on
// Linux and macOS); elsewhere the test cannot write it out and skips.
func plainHome(t *testing.T, home string) string {
	t.Helper()
	if strings.Trim(home, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./") != "" {
		t.Skipf("the temp folder %q needs quoting", home)
	}
	return "pa --home " + home
}

// Through the binary, open's timeout line and unlock's refusal quote the
// agent in the command they name.
func TestAdviceQuotesTheAgentThroughTheBinary(t *testing.T) {
	live := locktest.LivePID(t)
	c := binClasses[0]
	for _, tc := range []struct{ agent, flag string }{
		{"a b", "--agent 'a b'"},
		{"-x", "--agent=-x"},
		{"it's", `--agent 'it'\''s'`},
	} {
		home := t.TempDir()
		pa := plainHome(t, home)
		lock := "agents/" + tc.agent + "/spawn-log.json.lock"
		estatetest.WriteFile(t, home, lock, lockJSON(live, hostname(), time.Now()))
		tail := "clear it with " + pa + " dispatch unlock --force " + tc.flag + ", only once the holder's process is gone or stuck, never while it still runs\n"
		r := c.run(t, home, "dispatch", "open", "--agent="+tc.agent, "--wait", "0")
		if r.code != exitProblem || !strings.HasPrefix(r.stderr, "pa: "+lock+" held by pid ") ||
			!strings.HasSuffix(r.stderr, "): gave up at once (--wait 0); "+tail) {
			t.Errorf("open --agent %q: exit %d, stderr %q; want exit 2 ending with %q", tc.agent, r.code, r.stderr, tail)
		}
		r = c.run(t, home, "dispatch", "unlock", "--agent="+tc.agent)
		if r.code != exitProblem || !strings.HasSuffix(r.stderr, "): not removed; "+tail) {
			t.Errorf("unlock --agent %q: exit %d, stderr %q; want exit 2 ending with %q", tc.agent, r.code, r.stderr, tail)
		}
	}
}

// oneLine keeps a message on one line: every line break is a space.
func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"a\nb":         "a b",
		"a\r\nb":       "a b",
		"a\rb":         "a b",
		"a\n\nb\r\n":   "a  b ",
		"no break":     "no break",
		"\x1b[31m red": "\x1b[31m red", // escaping is not oneLine's job
	} {
		if got := oneLine(in); got != want {
			t.Errorf("oneLine(%q) = %q; want %q", in, got, want)
		}
	}
}

// An error whose text holds a line break is printed as one line: here the
// default estate's folder cannot be made because the user's home folder,
// whose name holds a newline, is a file.
func TestErrorWithANewlineIsOneLine(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no newline in a Windows file name")
	}
	user := filepath.Join(t.TempDir(), "home\nfolder")
	if err := os.WriteFile(user, nil, 0o644); err != nil {
		t.Skipf("this file system takes no newline in a name: %v", err)
	}
	cmd := exec.Command(paBin, "dispatch", "open", "--agent", "demo")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PA_") && !strings.HasPrefix(kv, "HOME=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "HOME="+user)
	r := runCmd(t, cmd)
	if r.code != exitUsage || r.stdout != "" || !strings.HasPrefix(r.stderr, "pa: estate ") || strings.Count(r.stderr, "\n") != 1 ||
		!strings.HasSuffix(r.stderr, "\n") || strings.ContainsRune(r.stderr, '\r') {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and one line", r.code, r.stdout, r.stderr)
	}
}

// pa help with a command that holds control characters says so in one
// line, with those characters escaped.
func TestHelpOfAnUnknownCommandIsEscaped(t *testing.T) {
	r := binClasses[0].run(t, t.TempDir(), "help", "no\npe\x1b[2J")
	want := `pa: help: no command "no\npe\x1b[2J"; the commands are: `
	if r.code != exitUsage || !strings.HasPrefix(r.stderr, want) || strings.ContainsAny(r.stderr, "\x1b") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("exit %d, stderr %q; want exit 1 and %q", r.code, r.stderr, want)
	}
}

// unlock without --agent acts on the estate's agents only: a folder under
// agents/ that is no valid agent name (agents/.x) is not one, and its dead
// lock is left alone.
func TestUnlockEveryAgentIgnoresAFolderThatIsNoAgent(t *testing.T) {
	dead := locktest.DeadPID(t)
	eachBinClass(t, func(t *testing.T, c binClass) {
		home := t.TempDir()
		estatetest.WriteFile(t, home, "agents/.x/spawn-log.json.lock", lockJSON(dead, hostname(), time.Now()))
		estatetest.WriteFile(t, home, "agents/demo/spawn-log.json", `{"version":1,"nextId":1,"records":[]}`)
		estatetest.WriteFile(t, home, "agents/file", "not a folder")
		before := estatetest.Snapshot(t, home)
		r := c.run(t, home, "dispatch", "unlock")
		if r.code != exitOK || r.stdout != "no spawn-log lock in the estate (1 agent)\n" || r.stderr != "" {
			t.Errorf("exit %d, stdout %q, stderr %q; want exit 0 and no lock in the estate's one agent", r.code, r.stdout, r.stderr)
		}
		if after := estatetest.Snapshot(t, home); !maps.Equal(before, after) {
			t.Errorf("unlock changed the estate: %q", after)
		}
		estatetest.WriteFile(t, home, "agents/other/spawn-log.json", `{"version":1,"nextId":1,"records":[]}`)
		if r := c.run(t, home, "dispatch", "unlock"); r.code != exitOK || r.stdout != "no spawn-log lock in the estate (2 agents)\n" {
			t.Errorf("two agents: exit %d, stdout %q; want exit 0 and no lock in the estate's two agents", r.code, r.stdout)
		}
	})
}

// dispatch list escapes what a terminal must not see raw in its plain
// output: a title holding an escape sequence is shown Go-quoted, with
// \x1b; a title with ordinary quotes and backslashes is shown as it is.
func TestListEscapesATitleInItsPlainOutput(t *testing.T) {
	c := binClasses[0]
	home := t.TempDir()
	for _, title := range []string{"\x1b[31mred\x1b[0m \u202eevil\u0085", `"q" back\slash <a&b>`} {
		if r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--title", title); r.code != 0 {
			t.Fatalf("open: exit %d, %q", r.code, r.stderr)
		}
	}
	r := c.run(t, home, "dispatch", "list")
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if r.code != 0 || len(lines) != 2 {
		t.Fatalf("list: exit %d, stdout %q; want two lines", r.code, r.stdout)
	}
	for i, want := range []string{`"\x1b[31mred\x1b[0m \u202eevil\u0085"`, `"q" back\slash <a&b>`} {
		fields := strings.Split(lines[i], "\t")
		if len(fields) != 4 || fields[0] != "demo" || fields[1] != strconv.Itoa(i+1) || fields[3] != want {
			t.Errorf("list: line %q; want demo, %d, openedAt and the title %s", lines[i], i+1, want)
		}
	}
	if strings.ContainsAny(r.stdout, "\x1b\u202e\u0085") {
		t.Errorf("list: stdout %q holds a raw control character", r.stdout)
	}
}
