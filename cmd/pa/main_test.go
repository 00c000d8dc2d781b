package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/locking"
)

// The tests of this package run the real binary: TestMain builds pa once
// (the shipped build) and once with -tags pafault (the test build that can
// refuse link() and kill itself at a step).
var (
	paBin      string // go build
	paFaultBin string // go build -tags pafault
)

func TestMain(m *testing.M) {
	flag.Parse()
	if home := os.Getenv(holdEnv); home != "" {
		// A holder started by startHolder: it takes the lock and waits.
		os.Exit(holdLock(home))
	}
	if f := flag.Lookup("test.run"); f != nil && f.Value.String() == "^$" {
		// A child of locktest.DeadPID: it only has to exit.
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "pa-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := func() int {
		defer os.RemoveAll(dir)
		exe := ""
		if runtime.GOOS == "windows" {
			exe = ".exe"
		}
		paBin = filepath.Join(dir, "pa"+exe)
		paFaultBin = filepath.Join(dir, "pa-fault"+exe)
		for _, b := range []struct{ out, tags string }{{paBin, ""}, {paFaultBin, "pafault"}} {
			cmd := exec.Command(goTool(), "build", "-tags="+b.tags, "-o", b.out, ".")
			if out, err := cmd.CombinedOutput(); err != nil {
				fmt.Fprintf(os.Stderr, "building pa (tags %q): %v\n%s", b.tags, err, out)
				return 1
			}
		}
		return m.Run()
	}()
	os.Exit(code)
}

// goTool is the go command of the toolchain running the tests.
func goTool() string {
	//lint:ignore SA1019 the toolchain that built this test binary is the one wanted
	if p := filepath.Join(runtime.GOROOT(), "bin", "go"); fileExists(p) {
		return p
	}
	return "go"
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// binClass is one column of the spec's table for the real binary: links
// (the shipped build) or nolinks (the pafault build with
// PA_FAULT_LINK_ERRNO).
type binClass struct {
	name  string
	bin   func() string
	errno string // PA_FAULT_LINK_ERRNO, "" for none
}

var binClasses = []binClass{
	{"links", func() string { return paBin }, ""},
	{"nolinks", func() string { return paFaultBin }, "ENOTSUP"},
}

// eachBinClass runs fn as one subtest per class.
func eachBinClass(t *testing.T, fn func(t *testing.T, c binClass)) {
	t.Helper()
	for _, c := range binClasses {
		t.Run(c.name, func(t *testing.T) { fn(t, c) })
	}
}

// result is one run of pa.
type result struct {
	code           int
	stdout, stderr string
	took           time.Duration
}

// command is pa with args against the estate home ("": the default
// estate, no --home), in the class's build, with a clean environment (no
// PA_* from the caller) plus env.
func (c binClass) command(home string, env []string, args ...string) *exec.Cmd {
	if home != "" {
		args = append([]string{"--home", home}, args...)
	}
	cmd := exec.Command(c.bin(), args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PA_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	if c.errno != "" {
		cmd.Env = append(cmd.Env, "PA_FAULT_LINK_ERRNO="+c.errno)
	}
	cmd.Env = append(cmd.Env, env...)
	return cmd
}

// run runs pa and waits for it.
func (c binClass) run(t *testing.T, home string, args ...string) result {
	t.Helper()
	return runCmd(t, c.command(home, nil, args...))
}

// defaultEstate is a user's home folder of its own and the default estate
// in it (user/.pa), for the lines whose commands, in the default estate,
// name no --home: a test's temp folder as --home would take room a bounded
// line needs.
func defaultEstate(t *testing.T) (user, home string) {
	user = t.TempDir()
	return user, filepath.Join(user, ".pa")
}

// runDefault runs pa on the default estate of the user whose home folder
// is user (see defaultEstate) and waits for it.
func (c binClass) runDefault(t *testing.T, user string, args ...string) result {
	t.Helper()
	return runCmd(t, c.command("", []string{"HOME=" + user, "USERPROFILE=" + user}, args...))
}

func runCmd(t *testing.T, cmd *exec.Cmd) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := result{stdout: stdout.String(), stderr: stderr.String(), took: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	default:
		t.Fatalf("running %v: %v", cmd.Args, err)
	}
	return r
}

// lockJSON is a lock's content, as a holder writes it.
func lockJSON(pid int, host string, acquiredAt time.Time) string {
	b, _ := json.Marshal(map[string]any{"pid": pid, "hostname": host, "token": strings.Repeat("5a", 12),
		"acquiredAt": acquiredAt.UTC().Format("2006-01-02T15:04:05.000Z")})
	return string(b)
}

// hostname is this host's, as the lock records it.
func hostname() string { return locking.OSHost().Hostname() }

func readFile(t *testing.T, home, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(home, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// chtimes sets the access and modification times of the slash name under
// home.
func chtimes(t *testing.T, home, name string, at time.Time) {
	t.Helper()
	if err := os.Chtimes(filepath.Join(home, filepath.FromSlash(name)), at, at); err != nil {
		t.Fatal(err)
	}
}
