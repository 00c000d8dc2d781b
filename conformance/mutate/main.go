// Command mutate pins the lock's guards: it applies named mutations to
// the lock's code (locking/, internal/, vfs/), one at a time, in a scratch
// copy of the module, runs the tests of locking, vfs/osfs, the conformance
// suite and the mutated package against each, and reports for each, as it
// goes ("n of N"), whether some test failed (the mutation is caught) or
// all passed (it survived). A mutation names its target by function and
// text, never by file or line, so it survives code moving between files
// and packages; `go test ./conformance/mutate` checks that every target
// is found, once. It prints the score and exits 1 unless every
// mutation is caught (and applies and compiles).
//
//	go run ./conformance/mutate [-run REGEXP] [-all] [-v]
//
// The unmutated tree runs first and must pass, so that a failure under a
// mutation is the mutation's. Under each mutation the
// tests stop at the first test that fails (the whole process group of the
// go command is killed then): the report names that test, read from `go
// test -json`, so a reviewer can see that a relevant test caught it. With
// -all every test runs under each mutation, and the report names the tests
// that failed (the first few; -v: all) and the failed cells of the
// conformance matrix. A mutation whose
// only failure is a package that timed out (or panicked outside any test,
// or did not build) is reported as "caught (timeout)" ("caught (panic)",
// "caught (build)"): it counts as caught, and the score says how many
// were caught that way only.
//
// The working tree is never changed: the copy is the module's tracked and
// untracked (not ignored) files, in a temp dir removed at the end.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"
)

// packages are the tests run against each mutation.
var packages = []string{"./internal/lockspec", "./locking/...", "./vfs/osfs/...", "./conformance", "./conformance/powercut"}

func main() {
	runFlag := flag.String("run", "", "only the mutations whose name matches this regexp")
	all := flag.Bool("all", false, "run every test under each mutation (default: stop at the first test that fails)")
	verbose := flag.Bool("v", false, "with -all, name every failed test of each mutation (default: the first 4)")
	flag.Parse()
	stopAtFirst = !*all
	os.Exit(run(*runFlag, *verbose))
}

// covered reports whether the package pattern pkg ("./vfs/osfs") is one
// of [packages] or under one ending in "/...".
func covered(pkg string) bool {
	for _, p := range packages {
		if p == pkg || strings.HasSuffix(p, "/...") && (pkg == strings.TrimSuffix(p, "/...") || strings.HasPrefix(pkg, strings.TrimSuffix(p, "..."))) {
			return true
		}
	}
	return false
}

// stopAtFirst makes goTest stop a run at its first failed test (no -all).
var stopAtFirst = true

func run(pattern string, verbose bool) int {
	re, err := regexp.Compile(pattern)
	if err != nil {
		fmt.Fprintf(os.Stderr, "mutate: -run: %v\n", err)
		return 2
	}
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintf(os.Stderr, "mutate: %v\n", err)
		return 2
	}
	scratch, err := os.MkdirTemp("", "pa-mutate-")
	if err != nil {
		fmt.Fprintf(os.Stderr, "mutate: %v\n", err)
		return 2
	}
	defer os.RemoveAll(scratch)
	stopOnSignal(scratch)
	if err := copyModule(root, scratch); err != nil {
		fmt.Fprintf(os.Stderr, "mutate: copying the module: %v\n", err)
		return 2
	}
	start := time.Now()
	if base := goTest(scratch, false); !base.ok() {
		fmt.Fprintf(os.Stderr, "mutate: the tests fail before any mutation (a flaky test, or a broken tree): %s\n", strings.Join(append(base.failed, base.packages...), "; "))
		for _, name := range append(base.failed, base.packages...) {
			name = strings.TrimSuffix(name, " (panic)")
			if i := strings.LastIndex(name, " ("); i > 0 && !strings.Contains(name[:i], " ") {
				name = name[:i] // a package and why
			}
			fmt.Fprintf(os.Stderr, "--- %s:\n%s", name, base.said[name])
		}
		return 2
	}
	fmt.Printf("mutate: the unmutated tree passes (%s)\n", time.Since(start).Round(time.Second))
	var chosen []mutation
	for _, m := range mutations {
		if re.MatchString(m.name) {
			chosen = append(chosen, m)
		}
	}
	caught, byPackage, total := 0, 0, 0
	for i, m := range chosen {
		total++
		start := time.Now()
		where, err := locate(scratch, m)
		verdict, detail := verdictNotApplied, report{}
		if err != nil {
			detail.notes = []string{err.Error()}
		} else {
			verdict, detail = try(scratch, m, where)
		}
		switch {
		case verdict == verdictCaught:
			caught++
		case strings.HasPrefix(verdict, verdictCaught+" ("):
			caught++
			byPackage++
		}
		fmt.Printf("%3d of %d %-16s %-62s %s (%s)\n", i+1, len(chosen), verdict, m.name, where.file, time.Since(start).Round(time.Second))
		for _, l := range detail.lines(verbose) {
			fmt.Printf("                 %s\n", l)
		}
	}
	fmt.Printf("mutate: %d of %d mutations caught", caught, total)
	if byPackage > 0 {
		fmt.Printf(" (%d only by a package's timeout, panic or build failure, no test named)", byPackage)
	}
	fmt.Println()
	if caught != total || total == 0 {
		return 1
	}
	return 0
}

// shownFailures is how many failed tests the report names for a caught
// mutation (without -v).
const shownFailures = 4

// try applies m at where in the scratch copy, runs the tests (those of
// [packages], and those of where's package) and restores the file. The
// verdict is one of [runResult.verdict]'s, or NOT-APPLIED (the mutant
// does not compile); detail names the failed tests and packages, then the
// failed cells of the matrix.
func try(scratch string, m mutation, where site) (verdict string, detail report) {
	file := filepath.Join(scratch, filepath.FromSlash(where.file))
	orig, err := os.ReadFile(file)
	if err != nil {
		return verdictNotApplied, report{notes: []string{err.Error()}}
	}
	defer os.WriteFile(file, orig, 0o644)
	if err := os.WriteFile(file, bytes.Replace(orig, []byte(m.old), []byte(m.new), 1), 0o644); err != nil {
		return verdictNotApplied, report{notes: []string{err.Error()}}
	}
	if out, err := goCmd(scratch, "vet", where.pkg()); err != nil {
		return verdictNotApplied, report{notes: append([]string{"the mutant does not build:"}, lines(out)...)}
	}
	r := goTest(scratch, stopAtFirst, where.pkg())
	return r.verdict(), report{failed: r.failed, notes: r.packages, cells: r.cells}
}

// report is what the run under one mutation found, to print under its
// verdict.
type report struct {
	failed []string // the failed tests, "PACKAGE TEST"
	notes  []string // packages failed with no test named, or why it did not apply
	cells  []string // the failed cells of the conformance matrix
}

// lines are the report's lines: the first shownFailures failed tests (all
// with verbose) and how many more, the notes, then the failed cells.
func (r report) lines(verbose bool) []string {
	out := r.failed
	if !verbose && len(out) > shownFailures {
		out = append(out[:shownFailures:shownFailures], fmt.Sprintf("... and %d more failed tests", len(r.failed)-shownFailures))
	}
	out = append(out, r.notes...)
	if len(r.cells) > 0 {
		out = append(out, "conformance matrix: "+strings.Join(r.cells, "; "))
	}
	return out
}

// goTest runs the tests of packages in dir with -json and reads what
// failed. With first, the run is killed (the go command's whole process
// group) at the first test that fails: what failed is then that test. A go
// command that fails with nothing failed in its output (it could not run
// at all) is a failure of package ".". The tests' temp folders are made in
// dir/tmp, so that a killed run leaves none outside the scratch copy.
func goTest(dir string, first bool, more ...string) runResult {
	args := append([]string{"test", "-json", "-count=1", "-timeout=10m"}, packages...)
	for _, p := range more {
		if !covered(p) {
			args = append(args, p)
		}
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	// Open to every user, as /tmp is (a test runs a copy of its binary as
	// nobody from its temp folder), the scratch copy made traversable.
	tmp := filepath.Join(dir, "tmp")
	err := os.MkdirAll(tmp, 0o755)
	if err == nil {
		err = os.Chmod(tmp, 0o777|fs.ModeSticky)
	}
	if err == nil {
		err = os.Chmod(dir, 0o755)
	}
	if err != nil {
		return runResult{packages: []string{". (failed)"}, text: err.Error()}
	}
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "GOTMPDIR="+tmp) // GOTMPDIR: t.TempDir's and the go command's own
	var stderr bytes.Buffer
	cmd.Stderr = &stderr // the go command's own errors
	inGroup(cmd)
	stdout, err := cmd.StdoutPipe()
	if err == nil {
		err = started(cmd)
	}
	if err != nil {
		return runResult{packages: []string{". (failed)"}, text: err.Error()}
	}
	var out strings.Builder
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	killed := false
	for sc.Scan() {
		out.Write(sc.Bytes())
		out.WriteByte('\n')
		if first && !killed && leafFailed(sc.Bytes()) {
			killed = true
			killGroup(cmd)
		}
	}
	_, _ = io.Copy(io.Discard, stdout)
	err = cmd.Wait()
	finished(cmd)
	r := parseRun(out.String()+stderr.String(), modulePath)
	if err != nil && r.ok() {
		r.packages = append(r.packages, ". (failed)")
		r.text += err.Error() + "\n"
	}
	return r
}

// leafFailed reports whether line, one event of `go test -json`, is a
// test's failure. The first such event of a run is a leaf's (a parent
// fails after its subtests).
func leafFailed(line []byte) bool {
	var ev event
	return json.Unmarshal(line, &ev) == nil && ev.Action == "fail" && ev.Test != ""
}

// running is the go command goTest runs now, killed (with its group) when
// mutate is interrupted.
var running struct {
	sync.Mutex
	cmd *exec.Cmd
}

// started starts cmd as the one running.
func started(cmd *exec.Cmd) error {
	running.Lock()
	defer running.Unlock()
	if err := cmd.Start(); err != nil {
		return err
	}
	running.cmd = cmd
	return nil
}

// finished marks cmd as no longer running.
func finished(cmd *exec.Cmd) {
	running.Lock()
	defer running.Unlock()
	if running.cmd == cmd {
		running.cmd = nil
	}
}

// stopOnSignal makes an interrupt (Ctrl-C) or SIGTERM kill the running go
// command with its group and remove the scratch copy before mutate exits.
func stopOnSignal(scratch string) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-c
		running.Lock()
		if running.cmd != nil {
			killGroup(running.cmd)
		}
		os.RemoveAll(scratch)
		fmt.Fprintf(os.Stderr, "mutate: %v: stopped\n", s)
		os.Exit(2)
	}()
}

// modulePath is the module's path, cut from package names in the report.
const modulePath = "github.com/pa-toolkit/pa"

func goCmd(dir string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func lines(s string) []string { return strings.Split(strings.TrimRight(s, "\n"), "\n") }

// moduleRoot is the folder of the go.mod of the current module.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %v", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("not inside a module")
	}
	return filepath.Dir(gomod), nil
}

// copyModule copies the module's files (git's tracked and untracked, not
// ignored; every file but .git when git cannot list them) from root to
// dst.
func copyModule(root, dst string) error {
	var files []string
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	if out, err := cmd.Output(); err == nil {
		for _, f := range strings.Split(string(out), "\x00") {
			if f != "" {
				files = append(files, filepath.FromSlash(f))
			}
		}
	} else {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == ".git" {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() {
				rel, _ := filepath.Rel(root, p)
				files = append(files, rel)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, f))
		if os.IsNotExist(err) {
			continue // deleted in the working tree
		}
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dst, filepath.Dir(f)), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, f), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
