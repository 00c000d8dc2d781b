package main

import (
	"slices"
	"strings"
	"testing"
)

// jsonRun joins lines of `go test -json` output.
func jsonRun(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

const mod = "github.com/pa-toolkit/pa"

func TestParseRunNamesLeafTests(t *testing.T) {
	out := jsonRun(
		`{"Action":"run","Package":"`+mod+`/conformance","Test":"TestConformance"}`,
		`{"Action":"output","Package":"`+mod+`/conformance","Test":"TestConformance","Output":"R19 links=fail nolinks=pass `+"`unlock`"+` on a dead holder\n"}`,
		`{"Action":"output","Package":"`+mod+`/conformance","Test":"TestConformance","Output":"R20 links=pass nolinks=pass refused\n"}`,
		`{"Action":"output","Package":"`+mod+`/conformance","Test":"ExampleRun","Output":"R19 links=fail nolinks=pass\n"}`,
		`{"Action":"output","Package":"`+mod+`/conformance","Test":"TestConformance/R19/links/sweeps-nothing-but-the-lock/dead","Output":"unlocksweep.go:80: the folder holds\n"}`,
		`{"Action":"fail","Package":"`+mod+`/conformance","Test":"TestConformance/R19/links/sweeps-nothing-but-the-lock/dead"}`,
		`{"Action":"fail","Package":"`+mod+`/conformance","Test":"TestConformance/R19/links/sweeps-nothing-but-the-lock"}`,
		`{"Action":"fail","Package":"`+mod+`/conformance","Test":"TestConformance/R19/links"}`,
		`{"Action":"fail","Package":"`+mod+`/conformance","Test":"TestConformance/R19"}`,
		`{"Action":"fail","Package":"`+mod+`/conformance","Test":"TestConformance"}`,
		`{"Action":"fail","Package":"`+mod+`/conformance"}`,
		`{"Action":"pass","Package":"`+mod+`/locking","Test":"TestUnlock"}`,
		`{"Action":"pass","Package":"`+mod+`/locking"}`,
	)
	r := parseRun(out, mod)
	if want := []string{"conformance TestConformance/R19/links/sweeps-nothing-but-the-lock/dead"}; !slices.Equal(r.failed, want) {
		t.Errorf("failed %q; want %q", r.failed, want)
	}
	if said := r.said[r.failed[0]]; said != "unlocksweep.go:80: the folder holds\n" {
		t.Errorf("the failed test said %q", said)
	}
	if len(r.packages) != 0 || r.verdict() != "caught" {
		t.Errorf("packages %q, verdict %q; want none and caught", r.packages, r.verdict())
	}
	if want := []string{"R19 links=fail nolinks=pass"}; !slices.Equal(r.cells, want) {
		t.Errorf("cells %q; want %q", r.cells, want)
	}
}

// A timeout names no failed test (test2json reports only the package's
// fail): the mutation is caught by the timeout only, and says so.
func TestParseRunTimeoutIsDistinct(t *testing.T) {
	out := jsonRun(
		`{"Action":"run","Package":"`+mod+`/locking","Test":"TestHang"}`,
		`{"Action":"output","Package":"`+mod+`/locking","Test":"TestHang","Output":"panic: test timed out after 10m0s\n"}`,
		`{"Action":"output","Package":"`+mod+`/locking","Test":"TestHang","Output":"\trunning tests:\n"}`,
		`{"Action":"fail","Package":"`+mod+`/locking"}`,
		`{"Action":"pass","Package":"`+mod+`/conformance"}`,
	)
	r := parseRun(out, mod)
	if len(r.failed) != 0 || !slices.Equal(r.packages, []string{"locking (timeout)"}) {
		t.Errorf("failed %q, packages %q; want no test and locking (timeout)", r.failed, r.packages)
	}
	if v := r.verdict(); v != "caught (timeout)" {
		t.Errorf("verdict %q; want caught (timeout)", v)
	}
}

// A test that panics is named, marked (panic); a panic outside any test
// and a build failure are the package's.
func TestParseRunPanicsAndBuilds(t *testing.T) {
	out := jsonRun(
		`{"Action":"output","Package":"`+mod+`/locking","Test":"TestBoom","Output":"panic: boom [recovered, repanicked]\n"}`,
		`{"Action":"fail","Package":"`+mod+`/locking","Test":"TestBoom"}`,
		`{"Action":"fail","Package":"`+mod+`/locking"}`,
	)
	if r := parseRun(out, mod); !slices.Equal(r.failed, []string{"locking TestBoom (panic)"}) || r.verdict() != "caught" {
		t.Errorf("failed %q, verdict %q", r.failed, r.verdict())
	}
	out = jsonRun(
		`{"Action":"output","Package":"`+mod+`/conformance","Output":"panic: in TestMain\n"}`,
		`{"Action":"fail","Package":"`+mod+`/conformance"}`,
	)
	if r := parseRun(out, mod); r.verdict() != "caught (panic)" {
		t.Errorf("verdict %q; want caught (panic)", r.verdict())
	}
	out = jsonRun(
		`{"ImportPath":"`+mod+`/locking [`+mod+`/locking.test]","Action":"build-output","Output":"x.go:1: bad\n"}`,
		`{"ImportPath":"`+mod+`/locking [`+mod+`/locking.test]","Action":"build-fail"}`,
		`{"Action":"fail","Package":"`+mod+`/locking","FailedBuild":"`+mod+`/locking [`+mod+`/locking.test]"}`,
	)
	if r := parseRun(out, mod); r.verdict() != "caught (build)" || !strings.Contains(r.text, "x.go:1: bad") {
		t.Errorf("verdict %q, text %q; want caught (build) with the build output", r.verdict(), r.text)
	}
}

func TestParseRunPassIsSurvived(t *testing.T) {
	out := jsonRun(
		`{"Action":"pass","Package":"`+mod+`/locking","Test":"TestX"}`,
		`{"Action":"pass","Package":"`+mod+`/locking"}`,
		`not json: the go command's own line`,
	)
	r := parseRun(out, mod)
	if !r.ok() || r.verdict() != "SURVIVED" || !strings.Contains(r.text, "not json") {
		t.Errorf("%+v; want ok, SURVIVED, the odd line kept", r)
	}
}
