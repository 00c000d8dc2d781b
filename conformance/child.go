package conformance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
)

// watchdog bounds every wait for a child's next line: a child that says
// nothing for that long is stuck, and the case fails instead of hanging.
const watchdog = time.Minute

// child is a child process of the suite, seen from the parent: its lines,
// and its stdin to let it go on from a pause.
type child struct {
	name   string
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	said   []string // every line read so far
	stderr bytes.Buffer
	ended  bool
	state  *os.ProcessState
}

// start runs the test binary as a child with spec (its Root, Shim and
// Class are the site's).
func (s *site) start(t *testing.T, name string, spec childSpec) *child {
	t.Helper()
	spec.Root, spec.Shim, spec.Class = s.root, s.shim, s.class
	enc, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatalf("os.Executable: %v", err)
	}
	c := &child{name: name, lines: make(chan string, 64)}
	c.cmd = exec.Command(exe, "-test.run=^$")
	if spec.Namespace {
		c.cmd = inNamespace(t, exe, "-test.run=^$")
	}
	c.cmd.Env = append(cleanEnv(), childEnv+"="+string(enc))
	c.cmd.Stderr = &c.stderr
	if c.stdin, err = c.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatalf("starting child %s: %v", name, err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	t.Cleanup(func() {
		if !c.ended {
			_ = c.cmd.Process.Kill()
			c.drain()
			_ = c.cmd.Wait()
		}
	})
	return c
}

// cleanEnv is this process's environment without PA_* variables.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PA_") {
			env = append(env, kv)
		}
	}
	return env
}

// next returns the child's next line; ok is false when it closed its
// stdout (it ended).
func (c *child) next(t *testing.T) (string, bool) {
	t.Helper()
	select {
	case l, ok := <-c.lines:
		if ok {
			c.said = append(c.said, l)
		}
		return l, ok
	case <-time.After(watchdog):
		t.Fatalf("child %s said nothing for %s; it said %q", c.name, watchdog, c.said)
	}
	return "", false
}

func (c *child) drain() {
	for l := range c.lines {
		c.said = append(c.said, l)
	}
}

// await reads the child's lines until it says want; it fails when the
// child ends first.
func (c *child) await(t *testing.T, want string) {
	t.Helper()
	for {
		l, ok := c.next(t)
		if !ok {
			c.wait(t)
			t.Fatalf("child %s ended (%v) before it said %q; it said %q; stderr %q", c.name, c.state, want, c.said, c.stderr.String())
		}
		if l == want {
			return
		}
	}
}

// paused waits until the child pauses at step.
func (c *child) paused(t *testing.T, step lockspec.Step) {
	t.Helper()
	c.await(t, "pause "+string(step))
}

// resume lets a paused child go on.
func (c *child) resume(t *testing.T) {
	t.Helper()
	if _, err := io.WriteString(c.stdin, "go\n"); err != nil {
		t.Fatalf("resuming child %s: %v", c.name, err)
	}
}

// pauseLasted is how long the child says it was paused at step (the
// "resumed" line it says on going on, measured by its own monotonic
// clock); it fails when the child has not said it yet.
func (c *child) pauseLasted(t *testing.T, step lockspec.Step) time.Duration {
	t.Helper()
	prefix := "resumed " + string(step) + " after "
	for _, l := range c.said {
		if ns, ok := strings.CutPrefix(l, prefix); ok {
			n, err := strconv.ParseInt(ns, 10, 64)
			if err != nil {
				t.Fatalf("child %s said %q: %v", c.name, l, err)
			}
			return time.Duration(n)
		}
	}
	t.Fatalf("child %s has not said how long it paused at %s; it said %q", c.name, step, c.said)
	return 0
}

// wait reads every line left and waits for the child to end.
func (c *child) wait(t *testing.T) {
	t.Helper()
	if c.ended {
		return
	}
	for {
		if _, ok := c.next(t); !ok {
			break
		}
	}
	_ = c.cmd.Wait()
	c.ended, c.state = true, c.cmd.ProcessState
}

// killedAt waits for the child to end and fails unless it killed itself at
// step (and no earlier kill step).
func (c *child) killedAt(t *testing.T, step lockspec.Step) {
	t.Helper()
	c.wait(t)
	last := ""
	for _, l := range c.said {
		if strings.HasPrefix(l, "kill ") {
			last = l
			break
		}
	}
	if last != "kill "+string(step) || !killed(c.state) {
		t.Fatalf("child %s: ended %v having said %q (stderr %q); want it killed at %s", c.name, c.state, c.said, c.stderr.String(), step)
	}
}

// succeeded waits for the child to end and fails unless it said "done ok"
// and exited 0.
func (c *child) succeeded(t *testing.T) {
	t.Helper()
	c.wait(t)
	if n := len(c.said); n == 0 || c.said[n-1] != "done ok" || !c.state.Success() {
		t.Fatalf("child %s: ended %v having said %q (stderr %q); want done ok", c.name, c.state, c.said, c.stderr.String())
	}
}

// pid is the child's pid.
func (c *child) pid() int { return c.cmd.Process.Pid }

// steps are the steps the child reported (Report), in order.
func (c *child) steps() []lockspec.Step {
	var out []lockspec.Step
	for _, l := range c.said {
		if s, ok := strings.CutPrefix(l, "step "); ok {
			out = append(out, lockspec.Step(s))
		}
	}
	return out
}

// ops are the remove, rename and link calls the child reported (Report)
// from line index from on, as "remove NAME ok".
func (c *child) ops(from int) []string {
	var out []string
	for _, l := range c.said[min(from, len(c.said)):] {
		if op, ok := strings.CutPrefix(l, "op "); ok {
			out = append(out, op)
		}
	}
	return out
}
