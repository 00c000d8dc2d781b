package main

import (
	"bufio"
	"encoding/json"
	"slices"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json's TestEvent, the
// fields read here).
type event struct {
	Action      string
	Package     string
	Test        string
	Output      string
	ImportPath  string // build-output and build-fail lines
	FailedBuild string // on a package's fail: the build that failed
}

// runResult is what one `go test -json` run found.
type runResult struct {
	// failed are the leaf tests that failed (a failed test none of whose
	// subtests failed), as "PACKAGE TEST", the package relative to the
	// module; a test that panicked has " (panic)" after its name.
	failed []string
	// packages are the packages that failed with no failed test of their
	// own, each with why: "PACKAGE (timeout)", "(panic)", "(build)" or
	// "(failed)".
	packages []string
	// cells are the failed cells of the conformance matrix ("R19
	// links=fail nolinks=pass").
	cells []string
	// text is the output of the run, for a run that must pass and did not.
	text string
	// said is what each failed test (as in failed, without " (panic)")
	// printed, and each failed package (as in packages, without why) outside
	// its tests.
	said map[string]string
}

// ok reports whether nothing failed.
func (r runResult) ok() bool { return len(r.failed) == 0 && len(r.packages) == 0 }

// verdict is how a mutation was caught: "caught" when some test failed by
// name, "caught (timeout)" when the only failure is a package that timed
// out ("caught (panic)", "caught (build)", "caught (failed)" alike for a
// package's panic outside any test, a build failure or a failure with no
// test named), "SURVIVED" when nothing failed.
func (r runResult) verdict() string {
	switch {
	case len(r.failed) > 0:
		return verdictCaught
	case len(r.packages) > 0:
		why := r.packages[0][strings.LastIndex(r.packages[0], "(")+1 : len(r.packages[0])-1]
		for _, p := range r.packages {
			if strings.HasSuffix(p, "(timeout)") {
				why = "timeout"
			}
		}
		return verdictCaught + " (" + why + ")"
	}
	return verdictSurvived
}

// The verdicts of a mutation.
const (
	verdictCaught     = "caught"
	verdictSurvived   = "SURVIVED"
	verdictNotApplied = "NOT-APPLIED"
)

// parseRun reads the output of `go test -json` (lines that are not JSON,
// such as a go command's own error, are kept in text). module is the
// module path, cut from package names.
func parseRun(out, module string) runResult {
	type pkgState struct {
		failed          map[string]bool // test name: failed
		said            map[string]*strings.Builder
		panicked        map[string]bool // test name: printed a panic
		pkgFailed       bool            // the package's own fail line
		timedOut, panic bool            // a timeout; a panic outside any test
		build           bool            // the package's test binary did not build
	}
	pkgs := map[string]*pkgState{}
	var order []string
	state := func(p string) *pkgState {
		if pkgs[p] == nil {
			pkgs[p] = &pkgState{failed: map[string]bool{}, panicked: map[string]bool{}, said: map[string]*strings.Builder{}}
			order = append(order, p)
		}
		return pkgs[p]
	}
	r := runResult{said: map[string]string{}}
	var text strings.Builder
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		var ev event
		if err := json.Unmarshal([]byte(line), &ev); err != nil || ev.Action == "" {
			text.WriteString(line + "\n")
			continue
		}
		if ev.Action == "build-output" || ev.Action == "build-fail" {
			text.WriteString(ev.Output)
			continue
		}
		p := state(strings.TrimPrefix(strings.TrimPrefix(ev.Package, module), "/"))
		switch ev.Action {
		case "output":
			text.WriteString(ev.Output)
			if p.said[ev.Test] == nil {
				p.said[ev.Test] = &strings.Builder{}
			}
			p.said[ev.Test].WriteString(ev.Output)
			switch o := ev.Output; {
			case strings.HasPrefix(o, "panic: test timed out"):
				p.timedOut = true
			case strings.HasPrefix(o, "panic: "):
				if ev.Test != "" {
					p.panicked[ev.Test] = true
				} else {
					p.panic = true
				}
			case strings.HasPrefix(o, "R") && strings.Contains(o, "=fail"):
				// The matrix, or an example's copy of a line of it: once.
				if f := strings.Fields(o); len(f) >= 3 && !slices.Contains(r.cells, strings.Join(f[:3], " ")) {
					r.cells = append(r.cells, strings.Join(f[:3], " "))
				}
			}
		case "fail":
			if ev.Test != "" {
				p.failed[ev.Test] = true
			} else {
				p.pkgFailed = true
				p.build = p.build || ev.FailedBuild != ""
			}
		}
	}
	for _, name := range order {
		p := pkgs[name]
		if name == "" {
			name = "."
		}
		var leaves []string
		for test := range p.failed {
			if !hasFailedChild(p.failed, test) {
				leaves = append(leaves, test)
			}
		}
		slices.Sort(leaves)
		for _, test := range leaves {
			s := name + " " + test
			if b := p.said[test]; b != nil {
				r.said[s] = b.String()
			}
			if p.panicked[test] {
				s += " (panic)"
			}
			r.failed = append(r.failed, s)
		}
		if len(leaves) > 0 || !p.pkgFailed {
			continue
		}
		why := "failed"
		switch {
		case p.timedOut:
			why = "timeout"
		case p.build:
			why = "build"
		case p.panic || len(p.panicked) > 0:
			why = "panic"
		}
		r.packages = append(r.packages, name+" ("+why+")")
		if b := p.said[""]; b != nil {
			r.said[name] = b.String()
		}
	}
	r.text = text.String()
	return r
}

// hasFailedChild reports whether a subtest of test failed.
func hasFailedChild(failed map[string]bool, test string) bool {
	for other := range failed {
		if strings.HasPrefix(other, test+"/") {
			return true
		}
	}
	return false
}
