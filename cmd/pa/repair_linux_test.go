package main

import (
	"fmt"
	"regexp"
	"sync"
	"testing"

	"github.com/pa-toolkit/pa/estate/estatetest"
)

// `pa board repair --wait 2s` against a live holder says once, on a
// terminal, after about a second, that it waits, in the words of dispatch
// open's wait line: the lock, its holder and until when; then the exit-2
// line. With stderr not a terminal, and with --json on a terminal, only the
// exit-2 line. The three run at once, against one holder.
func TestBoardRepairSaysItWaitsOnATerminal(t *testing.T) {
	c := binClasses[0]
	home := t.TempDir()
	estatetest.WriteFile(t, home, demoLog, threeRecords("demo"))
	h := startHolder(t, home, false)
	holder := fmt.Sprintf(`pa: agents/demo/spawn-log\.json\.lock held by pid %d on host "%s" \(alive: holds the lock's kernel lock, age [0-9.hmsµ]+, acquiredAt [0-9TZ:.-]+\): `,
		h.pid(), regexp.QuoteMeta(hostname()))
	waitLine := regexp.MustCompile(`^` + holder + `waiting for it until \d\d:\d\d:\d\d \(up to [0-9.hmsµ]+ more\)\n`)
	gaveUp := regexp.MustCompile(`^` + holder + `gave up after \d+s; clear it with `)

	args := []string{"board", "repair", "--agent", "demo", "--wait", "2s"}
	procs := []*started{
		startOn(t, c, home, true, args...),
		startOn(t, c, home, false, args...),
		startOn(t, c, home, true, append(args, "--json")...),
	}
	results := make([]result, len(procs))
	var wg sync.WaitGroup
	for i, p := range procs {
		wg.Go(func() { results[i] = p.wait() })
	}
	wg.Wait()
	terminal, pipe, jsonOnTerminal := results[0], results[1], results[2]

	lines := splitLines(terminal.stderr)
	if terminal.code != exitProblem || terminal.stdout != "" || len(lines) != 2 || !waitLine.MatchString(lines[0]) || !gaveUp.MatchString(lines[1]) {
		t.Errorf("on a terminal: exit %d, stdout %q, terminal %q; want exit 2, the wait line once (%s), then the exit-2 line (%s)",
			terminal.code, terminal.stdout, terminal.stderr, waitLine, gaveUp)
	}
	if r := pipe; r.code != exitProblem || r.stdout != "" || len(splitLines(r.stderr)) != 1 || !gaveUp.MatchString(r.stderr) {
		t.Errorf("stderr a pipe: exit %d, stdout %q, stderr %q; want exit 2 and the exit-2 line alone (%s)", r.code, r.stdout, r.stderr, gaveUp)
	}
	if r := jsonOnTerminal; r.code != exitProblem || len(splitLines(r.stderr)) != 1 || !gaveUp.MatchString(r.stderr) {
		t.Errorf("--json on a terminal: exit %d, stderr %q; want exit 2 and the exit-2 line alone (%s)", r.code, r.stderr, gaveUp)
	}
}
