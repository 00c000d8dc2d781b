// Command mutate pins the lock's guards: it applies named one-line
// mutations to locking/, one at a time, in a scratch copy of the module,
// runs the tests of locking and the conformance suite against each, and
// reports for each whether some test failed (the mutation is caught) or
// all passed (it survived). It prints the score and exits 1 unless every
// mutation is caught (and applies and compiles).
//
//	go run ./conformance/mutate [-run REGEXP] [-v]
//
// The working tree is never changed: the copy is the module's tracked and
// untracked (not ignored) files, in a temp dir removed at the end.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// packages are the tests run against each mutation.
var packages = []string{"./locking/...", "./conformance"}

func main() {
	runFlag := flag.String("run", "", "only the mutations whose name matches this regexp")
	verbose := flag.Bool("v", false, "print the failing tests of each mutation")
	flag.Parse()
	os.Exit(run(*runFlag, *verbose))
}

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
	if err := copyModule(root, scratch); err != nil {
		fmt.Fprintf(os.Stderr, "mutate: copying the module: %v\n", err)
		return 2
	}
	if out, ok := goTest(scratch); !ok {
		fmt.Fprintf(os.Stderr, "mutate: the tests fail before any mutation:\n%s", out)
		return 2
	}
	caught, total := 0, 0
	for _, m := range mutations {
		if !re.MatchString(m.name) {
			continue
		}
		total++
		start := time.Now()
		verdict, detail := try(scratch, m)
		if verdict == "caught" {
			caught++
		}
		fmt.Printf("%-9s %-62s %s (%s)\n", verdict, m.name, "locking/"+m.file, time.Since(start).Round(time.Second))
		if verbose || verdict != "caught" {
			for _, l := range detail {
				fmt.Printf("          %s\n", l)
			}
		}
	}
	fmt.Printf("mutate: %d of %d mutations caught\n", caught, total)
	if caught != total || total == 0 {
		return 1
	}
	return 0
}

// try applies m in the scratch copy, runs the tests and restores the file.
// The verdict is caught, SURVIVED, or NOT-APPLIED (the line is not there
// exactly once, or the mutant does not compile).
func try(scratch string, m mutation) (verdict string, detail []string) {
	file := filepath.Join(scratch, "locking", m.file)
	orig, err := os.ReadFile(file)
	if err != nil {
		return "NOT-APPLIED", []string{err.Error()}
	}
	if n := bytes.Count(orig, []byte(m.old)); n != 1 {
		return "NOT-APPLIED", []string{fmt.Sprintf("%q is in locking/%s %d times; want once", m.old, m.file, n)}
	}
	defer os.WriteFile(file, orig, 0o644)
	if err := os.WriteFile(file, bytes.Replace(orig, []byte(m.old), []byte(m.new), 1), 0o644); err != nil {
		return "NOT-APPLIED", []string{err.Error()}
	}
	if out, err := goCmd(scratch, "vet", "./locking"); err != nil {
		return "NOT-APPLIED", append([]string{"the mutant does not build:"}, lines(out)...)
	}
	out, ok := goTest(scratch)
	if ok {
		return "SURVIVED", nil
	}
	return "caught", failures(out)
}

// goTest runs the tests of packages in dir; ok is true when they pass.
func goTest(dir string) (string, bool) {
	args := append([]string{"test", "-count=1", "-timeout=10m"}, packages...)
	args = append(args, "-args", "-test.v")
	out, err := goCmd(dir, args...)
	return out, err == nil
}

func goCmd(dir string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// failures are the failed top-level tests and the failed cells of the
// conformance matrix in a test run's output.
func failures(out string) []string {
	var fails, cells []string
	for _, l := range lines(out) {
		switch {
		case strings.HasPrefix(l, "--- FAIL: ") && !strings.Contains(l, "TestConformance "):
			fails = append(fails, strings.TrimPrefix(l, "--- FAIL: "))
		case strings.HasPrefix(l, "R") && strings.Contains(l, "=fail"):
			f := strings.Fields(l)
			cells = append(cells, strings.Join(f[:3], " "))
		case strings.HasPrefix(l, "FAIL\t") && strings.Contains(l, "[build failed]"):
			fails = append(fails, l)
		}
	}
	if len(cells) > 0 {
		fails = append(fails, "conformance: "+strings.Join(cells, "; "))
	}
	return fails
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
