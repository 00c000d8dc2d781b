package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The environment of a worker: roleEnv selects its role, paramsEnv holds
// its parameters as JSON. The harness re-runs its own binary as each
// worker, so there is no helper program to build.
const (
	roleEnv   = "PA_BENCH_ROLE"
	paramsEnv = "PA_BENCH_PARAMS"
)

// The roles a worker plays.
const (
	roleContend = "contend" // contended.go
	roleHandoff = "handoff" // handoff.go
)

// runRole runs this process as the worker of role, with the parameters of
// paramsEnv, and returns its exit code: 0, or 1 with the error on stderr.
func runRole(role string) int {
	params := []byte(os.Getenv(paramsEnv))
	var err error
	switch role {
	case roleContend:
		err = contendWorker(params)
	case roleHandoff:
		err = handoffWorker(params)
	case roleSpawn:
		err = spawnWorker(params)
	default:
		err = fmt.Errorf("unknown role %q", role)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench %s worker %d: %v\n", role, os.Getpid(), err)
		return 1
	}
	return 0
}

// say writes v to stdout as one JSON line: a worker's message to the
// harness.
func say(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(append(b, '\n'))
	return err
}

// ready is a worker's first line: its instance is open, and it waits for
// the start.
type ready struct {
	Ready bool `json:"ready"`
}

// waitStart blocks until the harness closes its end of the start pipe f: all
// workers of a run start at once.
func waitStart(f *os.File) error {
	_, err := io.Copy(io.Discard, f)
	_ = f.Close()
	return err
}

// child is a worker process seen from the harness: its stdout lines and its
// stderr.
type child struct {
	cmd    *exec.Cmd
	lines  chan []byte
	stderr *lockedBuffer
	done   chan struct{} // closed once stdout is at its end

	reapOnce sync.Once
	reaped   atomic.Bool
	waitErr  error
}

// startChild starts this binary as a worker in role with params; extra
// become its file descriptors 3, 4, ... The parent's copies of extra are
// left open: the caller closes them.
func startChild(role string, params any, extra ...*os.File) (*child, error) {
	enc, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("os.Executable: %w", err)
	}
	c := &child{lines: make(chan []byte, 16), stderr: &lockedBuffer{}, done: make(chan struct{})}
	c.cmd = exec.Command(exe)
	c.cmd.Env = append(os.Environ(), roleEnv+"="+role, paramsEnv+"="+string(enc))
	c.cmd.ExtraFiles = extra
	c.cmd.SysProcAttr = workerAttr()
	c.cmd.Stderr = c.stderr
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := c.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting a %s worker: %w", role, err)
	}
	go func() {
		defer close(c.done)
		r := bufio.NewReader(stdout)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				c.lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	return c, nil
}

// errNoLine is matched when a worker ended or stayed silent instead of
// saying its next line.
var errNoLine = errors.New("no line from the worker")

// next decodes the worker's next line into v, waiting at most timeout. A
// worker that ends first, or says nothing for that long, is an error
// (wrapping errNoLine) that quotes its stderr.
func (c *child) next(v any, timeout time.Duration) error {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case line := <-c.lines:
		if err := json.Unmarshal(line, v); err != nil {
			return fmt.Errorf("worker %d said %q: %w", c.cmd.Process.Pid, line, err)
		}
		return nil
	case <-c.done:
		select {
		case line := <-c.lines:
			return json.Unmarshal(line, v)
		default:
		}
		_ = c.reap()
		return fmt.Errorf("worker %d ended (%v): %w; its stderr: %s", c.cmd.Process.Pid, c.cmd.ProcessState, errNoLine, c.stderrText())
	case <-t.C:
		return fmt.Errorf("worker %d said nothing for %s: %w; its stderr: %s", c.cmd.Process.Pid, timeout, errNoLine, c.stderrText())
	}
}

// reap waits, once, for the worker's stdout to end and the worker to exit,
// and returns exec's error (an *exec.ExitError for a non-zero exit).
func (c *child) reap() error {
	c.reapOnce.Do(func() {
		<-c.done
		c.waitErr = c.cmd.Wait()
		c.reaped.Store(true)
	})
	return c.waitErr
}

// wait waits for the worker to exit and fails unless it exited 0.
func (c *child) wait() error {
	if err := c.reap(); err != nil {
		return fmt.Errorf("worker %d: %v; its stderr: %s", c.cmd.Process.Pid, err, c.stderrText())
	}
	return nil
}

// kill ends a worker this harness started (by its own process handle) and
// reaps it; used when a run fails, so no worker outlives it.
func (c *child) kill() {
	if !c.reaped.Load() {
		_ = c.cmd.Process.Kill()
	}
	_ = c.reap()
}

// usage is the worker's user and system CPU as its exit status reports it
// (the sum of getrusage's ru_utime and ru_stime); valid after wait.
func (c *child) usage() time.Duration { return cpuOf(c.cmd.ProcessState) }

// cpuOf is a finished process's user and system CPU, as its exit status
// reports it (getrusage's ru_utime plus ru_stime); 0 for none.
func cpuOf(ps *os.ProcessState) time.Duration {
	if ps == nil {
		return 0
	}
	return ps.UserTime() + ps.SystemTime()
}

// lockedBuffer is a worker's stderr: written by exec's copying goroutine,
// read by the harness while the worker may still run.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (c *child) stderrText() string {
	s := strings.TrimSpace(c.stderr.String())
	if s == "" {
		return "(empty)"
	}
	return s
}

// killAll kills every worker of a failed run.
func killAll(children []*child) {
	for _, c := range children {
		if c != nil {
			c.kill()
		}
	}
}

// workerParams are a worker's parameters that name its contender and the
// folder its instance opens.
type workerParams interface {
	contender() string
	folder() string
}

func (p *contendParams) contender() string { return p.Key }
func (p *contendParams) folder() string    { return p.Dir }
func (p *handoffParams) contender() string { return p.Key }
func (p *handoffParams) folder() string    { return p.Dir }

// workerInstance decodes a worker's parameters (JSON) into p and opens the
// instance of the contender they name on their folder; the caller closes
// it.
func workerInstance(raw []byte, p workerParams) (Instance, error) {
	if err := json.Unmarshal(raw, p); err != nil {
		return nil, fmt.Errorf("parameters: %w", err)
	}
	c, err := contenderByKey(p.contender())
	if err != nil {
		return nil, err
	}
	return c.Open(p.folder())
}
