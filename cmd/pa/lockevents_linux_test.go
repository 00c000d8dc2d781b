package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/pa-toolkit/pa/estate/estatetest"
)

// started is a pa process started by startOn, its stdout and stderr read
// by wait.
type started struct {
	cmd        *exec.Cmd
	stdout     bytes.Buffer
	stderr     bytes.Buffer  // when not on a terminal
	controller *os.File      // when on a terminal: what pa printed there
	said       bytes.Buffer  // read from controller
	read       chan struct{} // closed once controller is read to its end
}

// startOn starts pa with its stderr on a fresh pseudo-terminal when
// onTerminal, else on a pipe. It runs in the test's goroutine; wait may
// run in another.
func startOn(t *testing.T, c binClass, home string, onTerminal bool, args ...string) *started {
	t.Helper()
	p := &started{cmd: c.command(home, nil, args...)}
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	var terminal *os.File
	if onTerminal {
		p.controller, terminal = openPTY(t)
		p.cmd.Stderr = terminal
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if onTerminal {
		terminal.Close() // the child has it: the controller reads EIO once it exits
		p.read = make(chan struct{})
		go func() {
			defer close(p.read)
			_, _ = io.Copy(&p.said, p.controller) // ends with EIO when the child's terminal closes
		}()
	}
	return p
}

// wait waits for p and returns what it printed (on a terminal, \r\n read
// as \n).
func (p *started) wait() result {
	err := p.cmd.Wait()
	r := result{stdout: p.stdout.String(), stderr: p.stderr.String()}
	if p.read != nil {
		<-p.read
		r.stderr = strings.ReplaceAll(p.said.String(), "\r\n", "\n")
	}
	if err != nil {
		r.code = p.cmd.ProcessState.ExitCode()
	}
	return r
}

// `pa dispatch open` against a live holder (a real process of this host,
// which holds the lock's kernel lock), with --wait 2s, says once, on a
// terminal, after about a second, that it waits: the lock, its holder (pid,
// host, state, age, acquiredAt) and until when; then the exit-2 line. With
// stderr not a terminal, and with --json on a terminal, only the exit-2
// line. The three run at once, against one holder.
func TestOpenSaysItWaitsOnATerminal(t *testing.T) {
	c := binClasses[0]
	home := t.TempDir()
	estatetest.WriteFile(t, home, demoLog, emptyLog)
	h := startHolder(t, home, false)
	holder := fmt.Sprintf(`pa: agents/demo/spawn-log\.json\.lock held by pid %d on host "%s" \(alive: holds the lock's kernel lock, age [0-9.hmsµ]+, acquiredAt [0-9TZ:.-]+\): `,
		h.pid(), regexp.QuoteMeta(hostname()))
	waitLine := regexp.MustCompile(`^` + holder + `waiting for it until \d\d:\d\d:\d\d \(up to [0-9.hmsµ]+ more\)\n`)
	gaveUp := regexp.MustCompile(`^` + holder + `gave up after \d+s; clear it with `)

	args := []string{"dispatch", "open", "--agent", "demo", "--title", "t", "--wait", "2s"}
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
	// --json: no wait line, the error as its one object (its message
	// the exit-2 line without "pa: ").
	var obj struct {
		Code    string `json:"error_code"`
		Message string `json:"message"`
	}
	r := jsonOnTerminal
	if err := json.Unmarshal([]byte(r.stderr), &obj); r.code != exitProblem || r.stdout != "" || len(splitLines(r.stderr)) != 1 || err != nil ||
		obj.Code != "lock_acquire_timeout" || !gaveUp.MatchString("pa: "+obj.Message) {
		t.Errorf("--json on a terminal: exit %d, stdout %q, stderr %q; want exit 2 and the error's object alone (%s)", r.code, r.stdout, r.stderr, gaveUp)
	}
}
