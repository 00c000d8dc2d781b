package vfstest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// childEnv carries a childSpec to a copy of the test binary that races
// exclusive creates for exclusive-create-processes.
const childEnv = "VFSTEST_CHILD"

// childSpec is what a child is told: which test runs it again, where to
// race and how many names.
type childSpec struct {
	Test  string // the t.Name() that called Run
	Dir   string // the folder of the real OS, opened through Options.Open
	Names int    // the child tries to create race-0 .. race-(Names-1)
}

// Lines a child writes on its stdout.
const (
	lineReady = "vfstest-ready"
	lineWon   = "vfstest-won "
	lineError = "vfstest-error "
	lineDone  = "vfstest-done"
)

func isChild() bool { return os.Getenv(childEnv) != "" }

// childTimeout bounds the whole race: a child that says nothing for that
// long is stuck.
const childTimeout = 2 * time.Minute

// exclusiveCreateProcesses runs Processes copies of the test binary, each
// running the calling test again as a child that opens one folder through
// Options.Open and, once every child is ready, tries to create each of
// Rounds names exclusively; every name must be won by exactly one process.
func exclusiveCreateProcesses(t *testing.T, opts Options) error {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("os.Executable: %v", err)
	}
	dir, tmp := t.TempDir(), t.TempDir()
	spec := childSpec{Test: parentName(t.Name()), Dir: dir, Names: opts.rounds()}
	enc, err := json.Marshal(spec)
	if err != nil {
		return err
	}
	type proc struct {
		cmd    *exec.Cmd
		stdin  io.WriteCloser
		lines  chan string
		stderr bytes.Buffer
	}
	var procs []*proc
	defer func() {
		for _, p := range procs {
			_ = p.stdin.Close()
			_ = p.cmd.Process.Kill()
			for range p.lines {
			}
			_ = p.cmd.Wait()
		}
	}()
	for range opts.processes() {
		p := &proc{lines: make(chan string, 16)}
		p.cmd = exec.Command(exe, "-test.run="+runPattern(spec.Test), "-test.count=1")
		p.cmd.Env = append(append(os.Environ(), childEnv+"="+string(enc)), tempEnv(tmp)...)
		p.cmd.Stderr = &p.stderr
		if p.stdin, err = p.cmd.StdinPipe(); err != nil {
			return err
		}
		stdout, err := p.cmd.StdoutPipe()
		if err != nil {
			return err
		}
		if err := p.cmd.Start(); err != nil {
			return fmt.Errorf("starting a child: %v", err)
		}
		procs = append(procs, p)
		go func() {
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				if strings.HasPrefix(sc.Text(), "vfstest-") {
					p.lines <- sc.Text()
				}
			}
			close(p.lines)
		}()
	}
	next := func(p *proc) (string, error) {
		select {
		case l, ok := <-p.lines:
			if !ok {
				return "", fmt.Errorf("a child ended early; its stderr: %q", p.stderr.String())
			}
			return l, nil
		case <-time.After(childTimeout):
			return "", fmt.Errorf("a child said nothing for %s", childTimeout)
		}
	}
	for _, p := range procs {
		l, err := next(p)
		if err != nil {
			return err
		}
		if l != lineReady {
			return fmt.Errorf("a child said %q; want %q", l, lineReady)
		}
	}
	for _, p := range procs {
		_ = p.stdin.Close() // go
	}
	won := map[string][]int{}
	for i, p := range procs {
		for {
			l, err := next(p)
			if err != nil {
				return err
			}
			if l == lineDone {
				break
			}
			if name, ok := strings.CutPrefix(l, lineWon); ok {
				won[name] = append(won[name], i)
				continue
			}
			return fmt.Errorf("child %d: %s", i, strings.TrimPrefix(l, lineError))
		}
	}
	for r := range spec.Names {
		name := fmt.Sprintf("race-%d", r)
		if w := won[name]; len(w) != 1 {
			return fmt.Errorf("%s was created exclusively by %d of %d processes racing for it (children %v); want exactly 1", name, len(w), len(procs), w)
		}
	}
	perChild := make([]int, len(procs))
	for _, w := range won {
		perChild[w[0]]++
	}
	t.Logf("%d processes raced for %d names; each name won by one (names won per process: %v)", len(procs), spec.Names, perChild)
	return nil
}

// runChild plays a child of exclusiveCreateProcesses, inside the test that
// called Run, when that test is the one the spec names.
func runChild(t *testing.T, opts Options) {
	var spec childSpec
	if err := json.Unmarshal([]byte(os.Getenv(childEnv)), &spec); err != nil || spec.Test != t.Name() {
		t.Skip("a vfstest child of another test")
	}
	say := func(s string) { fmt.Println(s) }
	if opts.Open == nil {
		say(lineError + "no Options.Open in the child")
		return
	}
	fsys, err := opts.Open(spec.Dir)
	if err != nil {
		say(lineError + oneLine(err))
		return
	}
	say(lineReady)
	_, _ = io.Copy(io.Discard, os.Stdin) // the parent closes it to start the race
	for r := range spec.Names {
		name := fmt.Sprintf("race-%d", r)
		f, err := fsys.OpenFile(name, createExcl, 0o644)
		switch {
		case err == nil:
			_, _ = fmt.Fprintf(f, "%d", os.Getpid())
			_ = f.Close()
			say(lineWon + name)
		case !errors.Is(err, fs.ErrExist):
			say(lineError + oneLine(err))
		}
	}
	say(lineDone)
}

// tempEnv is the environment that puts every temp folder a child makes
// (t.TempDir, os.MkdirTemp("", ...)) in dir: a child is killed once it has
// said it is done, maybe before the cleanups of the test it runs, so its
// folders are made in one of the parent's, removed with the parent's test.
func tempEnv(dir string) []string {
	return []string{"GOTMPDIR=" + dir, "TMPDIR=" + dir, "TMP=" + dir, "TEMP=" + dir}
}

func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", " ") }

// parentName is the name of the test that called Run: t.Name() of the
// processes subtest without its last element.
func parentName(name string) string {
	if i := strings.LastIndex(name, "/"); i >= 0 {
		return name[:i]
	}
	return name
}

// runPattern is a -test.run pattern that selects exactly the test named
// name (with its subtests' path).
func runPattern(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}
