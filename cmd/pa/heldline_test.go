package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pa-toolkit/pa/dispatch"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// checkHeld runs board check on the default estate of the user whose home
// folder is user (see defaultEstate) and returns its
// one plain line, the --json problem's line and command, and the
// envelope's one line.
func checkHeld(t *testing.T, user string, args ...string) (plain, line, command, envelope string) {
	t.Helper()
	c := binClasses[0]
	run := func(args ...string) result { return c.runDefault(t, user, args...) }
	r := run(append([]string{"board", "check"}, args...)...)
	if r.code != 2 || strings.Count(r.stdout, "\n") != 1 {
		t.Fatalf("plain: exit %d, stdout %q; want exit 2 and one line", r.code, r.stdout)
	}
	plain = strings.TrimSuffix(r.stdout, "\n")
	r = run(append([]string{"board", "check", "--json"}, args...)...)
	var js struct {
		Problems []struct{ Line, Command string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &js); err != nil || r.code != 2 || len(js.Problems) != 1 {
		t.Fatalf("--json: exit %d, stdout %q (%v); want exit 2 and one problem", r.code, r.stdout, err)
	}
	r = run(append([]string{"board", "check", "--hook-envelope"}, args...)...)
	var env struct{ Problems []string }
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil || r.code != 0 || len(env.Problems) != 1 {
		t.Fatalf("--hook-envelope: exit %d, stdout %q (%v); want exit 0 and one problem", r.code, r.stdout, err)
	}
	return plain, js.Problems[0].Line, js.Problems[0].Command, env.Problems[0]
}

// board check's lock-held line leads with what is wrong (the lock, held
// past the window by its holder), then names the whole command that clears
// it, --agent and the agent's whole name shell-quoted (in the default
// estate, so no --home), then, for a holder not provably dead, when to
// use --force; a dead holder's line ends with its command, below 360
// characters, so the envelope carries it whole. The --json line is the
// same, and so is its "command".
func TestBoardCheckLockHeldLineNamesTheWholeCommand(t *testing.T) {
	live, dead := locktest.LivePID(t), locktest.DeadPID(t)
	long := strings.Repeat("l", 60)
	for _, tc := range []struct {
		name, agent, flag string
		pid               int
		host, state, end  string
	}{
		{"another host", "it's", `--agent 'it'\''s'`, live, "elsewhere", "on another host", ", " + forceWhen},
		{"alive", "-x", "--agent=-x", live, "", "alive", ", " + forceWhen},
		{"dead", "demo", "--agent demo", dead, "", "dead", ""},
		{"dead, a long agent", long, "--agent " + long, dead, "", "dead", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			user, home := defaultEstate(t)
			host := tc.host
			if host == "" {
				host = hostname()
			}
			lock := "agents/" + tc.agent + "/spawn-log.json.lock"
			estatetest.WriteFile(t, home, lock, lockJSON(tc.pid, host, time.Now().Add(-time.Hour)))
			chtimes(t, home, lock, time.Now().Add(-time.Hour))
			plain, line, command, envelope := checkHeld(t, user)
			force := ""
			if tc.end != "" {
				force = "--force "
			}
			lead := estatetestDisplay(tc.agent) + fmt.Sprintf(" held by pid %d on host %q (%s", tc.pid, host, tc.state)
			end := " past the 60s stale window; clear it with pa dispatch unlock " + force + tc.flag + tc.end
			if !strings.HasPrefix(plain, lead) || !strings.HasSuffix(plain, end) || utf8.RuneCountInString(plain) > 360 {
				t.Errorf("plain: %q; want %q...%q, at most 360 characters", plain, lead, end)
			}
			if !sameLine(line, plain) || !sameLine(envelope, plain) {
				t.Errorf("--json line %q, envelope line %q; want the plain line whole", line, envelope)
			}
			if want := "pa dispatch unlock " + force + tc.flag; command != want {
				t.Errorf("--json command %q; want %q", command, want)
			}
		})
	}
}

// estatetestDisplay is agent's lock as a line shows it, the agent capped
// at 32 characters (29 and "...").
func estatetestDisplay(agent string) string {
	if utf8.RuneCountInString(agent) > 32 {
		agent = string([]rune(agent)[:29]) + "..."
	}
	return "agents/" + agent + "/spawn-log.json.lock"
}

// Where the agent's whole name leaves the command no room, the lock-held
// line says where the whole command is (the --json "command") and names no
// command cut short, within 362 characters (360 for a dead holder); with
// the worst values and the longest stale window, the acquiredAt shown is
// cut to fit too. --json keeps the command, host and acquiredAt whole.
func TestBoardCheckLockHeldLineWhenTheCommandDoesNotFit(t *testing.T) {
	live, dead := locktest.LivePID(t), locktest.DeadPID(t)
	agent := strings.Repeat("w", 240)
	for _, tc := range []struct {
		name   string
		pid    int
		host   string
		args   []string
		bound  int
		end    string
		cutAcq bool
	}{
		{"alive", live, "", nil, 362, ", " + forceWhen, false},
		{"dead", dead, "", nil, 360, "", false},
		{"worst values, longest window", 2147483647, strings.Repeat(`"`, 255), []string{"--stale-window", "3000000000s"}, 362, ", " + forceWhen, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			user, home := defaultEstate(t)
			host := tc.host
			if host == "" {
				host = hostname()
			}
			acquiredAt := "\x1b[2J" + strings.Repeat("z", 200)
			lock := "agents/" + agent + "/spawn-log.json.lock"
			b, _ := json.Marshal(map[string]any{"pid": tc.pid, "hostname": host, "token": strings.Repeat("5a", 12), "acquiredAt": acquiredAt})
			estatetest.WriteFile(t, home, lock, string(b))
			old := time.Date(1902, 1, 1, 0, 0, 0, 0, time.UTC)
			if err := os.Chtimes(filepath.Join(home, filepath.FromSlash(lock)), old, old); err != nil {
				t.Skipf("this file system keeps no file time in 1902: %v", err)
			}
			plain, line, command, envelope := checkHeld(t, user, tc.args...)
			end := `; clear it with the "command" this check prints with --json` + tc.end
			if n := utf8.RuneCountInString(plain); n > tc.bound || !strings.HasPrefix(plain, estatetestDisplay(agent)+" held by pid ") ||
				!strings.HasSuffix(plain, end) || strings.Contains(plain, "dispatch unlock") {
				t.Errorf("plain (%d characters): %q; want at most %d, the lock first, ending %q, no command cut short", n, plain, tc.bound, end)
			}
			// The acquiredAt shown: capped at 32 characters, or cut below.
			_, acq, _ := strings.Cut(plain, ", acquiredAt ")
			acq, _, _ = strings.Cut(acq, ") past the ")
			if n := utf8.RuneCountInString(acq); !strings.HasSuffix(acq, "...") || (n < 32) != tc.cutAcq {
				t.Errorf("plain: acquiredAt shown %q (%d characters); want it capped at 32, cut below it: %v", acq, n, tc.cutAcq)
			}
			if !sameLine(line, plain) || !sameLine(envelope, firstRunes(plain, 360)) {
				t.Errorf("--json line %q, envelope %q; want the plain line, and its first 360 characters", line, envelope)
			}
			force := "--force "
			if tc.pid == dead {
				force = ""
			}
			if want := "pa dispatch unlock " + force + "--agent " + agent; command != want {
				t.Errorf("--json command %q; want %q", command, want)
			}
		})
	}
}

// The owner-or-root form of the lock-held line keeps the bound with the
// worst values and the longest owner: a user name too long for it is left
// out, the uid said alone.
func TestLockHeldLineAsOwnerKeepsTheBound(t *testing.T) {
	agent := strings.Repeat("w", 240)
	p := dispatch.Problem{
		Kind: dispatch.KindLockHeld, Agent: agent, Path: estate.SpawnLogPath(agent) + ".lock",
		StaleWindow: 3000000000 * time.Second,
		Lock: locking.Holder{
			PID: 2147483647, Hostname: strings.Repeat(`"`, 255), HasHostname: true,
			AcquiredAt: "\x1b[2J" + strings.Repeat("z", 251), FileTime: time.Date(1902, 1, 1, 0, 0, 0, 0, time.UTC),
			Age: 1 << 62, State: locking.StateOtherHost,
		},
	}
	for _, tc := range []struct{ owner, says string }{
		{"", ""},
		{"uid 65534 (nobody)", " as uid 65534 (nobody) or as root"},
		{"uid 4294967294 (" + strings.Repeat("j", 32) + ")", " as uid 4294967294 or as root"},
		{"uid 4294967294 (" + strings.Repeat("j", 100) + ")", " as uid 4294967294 or as root"},
	} {
		line := lockHeldLine("", p, tc.owner)
		if n := utf8.RuneCountInString(line); n > 362 || !strings.Contains(line, `this check prints with --json`+tc.says) {
			t.Errorf("owner %q: the line is %d characters: %q; want at most 362, naming the owner as %q", tc.owner, n, line, tc.says)
		}
	}
}
