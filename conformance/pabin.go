package conformance

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
)

// paPackage is the pa command, built by the run that needs it.
const paPackage = "github.com/pa-toolkit/pa/cmd/pa"

// bins are the pa binaries of this process, built once at first use: the
// shipped build and the pafault test build (PA_FAULT_LINK_ERRNO,
// PA_FAULT_STEP).
var bins struct {
	once           sync.Once
	dir            string
	shipped, fault string
	err            error
}

// binaries builds pa (once per process) and returns the shipped and the
// pafault build.
func binaries(t *testing.T) (shipped, fault string) {
	t.Helper()
	bins.once.Do(func() {
		bins.dir, bins.err = os.MkdirTemp("", "pa-conformance-bin-")
		if bins.err != nil {
			return
		}
		exe := ""
		if runtime.GOOS == "windows" {
			exe = ".exe"
		}
		bins.shipped = filepath.Join(bins.dir, "pa"+exe)
		bins.fault = filepath.Join(bins.dir, "pa-fault"+exe)
		for _, b := range []struct{ out, tags string }{{bins.shipped, ""}, {bins.fault, "pafault"}} {
			cmd := exec.Command(goTool(), "build", "-tags="+b.tags, "-o", b.out, paPackage)
			if out, err := cmd.CombinedOutput(); err != nil {
				bins.err = fmt.Errorf("building pa (tags %q): %v\n%s", b.tags, err, out)
				return
			}
		}
	})
	if bins.err != nil {
		t.Fatal(bins.err)
	}
	return bins.shipped, bins.fault
}

// removeBinaries removes what binaries built.
func removeBinaries() {
	if bins.dir != "" {
		_ = os.RemoveAll(bins.dir)
	}
}

// goTool is the go command of the toolchain running the tests.
func goTool() string {
	name := "go"
	if runtime.GOOS == "windows" {
		name = "go.exe"
	}
	//lint:ignore SA1019 the toolchain that built this test binary is the one wanted
	if p := filepath.Join(runtime.GOROOT(), "bin", name); fileExists(p) {
		return p
	}
	return "go"
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// result is one run of pa.
type result struct {
	code           int
	stdout, stderr string
	took           time.Duration
}

// paCmd is pa with args against the site's estate (--home), in the build
// of the site's class: the shipped build, or the pafault build refusing
// link() when the class needs the shim; step, when set, makes the pafault
// build kill itself there. The environment has no PA_* of the caller's.
func (s *site) paCmd(t *testing.T, step string, args ...string) *exec.Cmd {
	t.Helper()
	var env []string
	switch {
	case s.shim && s.class == DirPublish:
		env = append(env, "PA_FAULT_LINK_ERRNO=ENOTSUP") // the directory publish: the default
	case s.shim:
		env = append(env, "PA_FAULT_LINK_ERRNO=ENOTSUP", "PA_FAULT_PUBLISH=exclusive")
	case s.class == NoLinks && step != "":
		// A volume that refuses link() itself (exFAT): the pafault build
		// that dies at a step of this column publishes as the column
		// does, by the spec's exclusive create; the volume's own EPERM
		// is what the shim says.
		env = append(env, "PA_FAULT_LINK_ERRNO=EPERM", "PA_FAULT_PUBLISH=exclusive")
	}
	if step != "" {
		env = append(env, "PA_FAULT_STEP="+step)
	}
	return s.paCmdEnv(t, env, args...)
}

// paCmdEnv is pa with args against the site's estate, with env added to a
// clean environment: the pafault build when env is not empty, the shipped
// build otherwise.
func (s *site) paCmdEnv(t *testing.T, env []string, args ...string) *exec.Cmd {
	t.Helper()
	shipped, fault := binaries(t)
	bin := shipped
	if len(env) > 0 {
		bin = fault
	}
	cmd := exec.Command(bin, append([]string{"--home", s.root}, args...)...)
	cmd.Env = append(cleanEnv(), env...)
	return cmd
}

// pa runs pa with args and waits for it.
func (s *site) pa(t *testing.T, args ...string) result {
	t.Helper()
	return runCmd(t, s.paCmd(t, "", args...))
}

// paKilled runs the pafault build of pa that kills itself at step.
func (s *site) paKilled(t *testing.T, step string, args ...string) result {
	t.Helper()
	return runCmd(t, s.paCmd(t, step, args...))
}

func runCmd(t *testing.T, cmd *exec.Cmd) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := result{stdout: stdout.String(), stderr: stderr.String(), took: time.Since(start), code: exitCode(err)}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("running %v: %v", cmd.Args, err)
	}
	return r
}

// paMany starts n runs of pa at once and waits for all of them.
func (s *site) paMany(t *testing.T, n int, args func(i int) []string) []result {
	t.Helper()
	return s.paManyEnv(t, n, nil, args)
}

// paManyEnv is paMany with env (see paCmdEnv); nil env is the class's
// build.
func (s *site) paManyEnv(t *testing.T, n int, env []string, args func(i int) []string) []result {
	t.Helper()
	cmds := make([]*exec.Cmd, n)
	for i := range n {
		cmds[i] = s.paCmd(t, "", args(i)...)
		if env != nil {
			cmds[i] = s.paCmdEnv(t, env, args(i)...)
		}
	}
	return runAtOnce(cmds)
}

// runAtOnce starts cmds at once and waits for all of them.
func runAtOnce(cmds []*exec.Cmd) []result {
	results := make([]result, len(cmds))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, cmd := range cmds {
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		wg.Go(func() {
			<-start
			err := cmd.Run()
			results[i] = result{stdout: stdout.String(), stderr: stderr.String(), code: exitCode(err)}
		})
	}
	close(start)
	wg.Wait()
	return results
}

// exitCode is a run's exit code: -1 when it did not run or was killed by
// a signal.
func exitCode(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	return -1
}
