package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/cmd/pa/internal/probe"
)

// pa fs probe DIR prints one line a check and the class, works in a folder
// of its own under DIR and removes it; --json has the same report. The
// pafault build with PA_FAULT_LINK_ERRNO=EPERM reports what exFAT shows: no
// hard links, EPERM.
func TestFSProbe(t *testing.T) {
	dir := t.TempDir()
	c := binClasses[0]
	r := c.run(t, t.TempDir(), "fs", "probe", dir)
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("pa fs probe: exit %d, stderr %q", r.code, r.stderr)
	}
	// A claim everywhere: Unix's stat gives the file's device and inode,
	// Windows' handle its volume serial and file index.
	kernel := "\nkernel lock: works and excludes a second open (refused while the first handle holds it): locks here record a kernel-lock claim;"
	lines := []string{"volume: " + dir, "class:  links (link() works", "made and removed", kernel}
	for _, want := range append(lines, probe.Checks...) {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("pa fs probe output lacks %q:\n%s", want, r.stdout)
		}
	}
	if runtime.GOOS == "linux" && !strings.Contains(r.stdout, "mounted at ") {
		t.Errorf("pa fs probe names no mount on Linux:\n%s", r.stdout)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("pa fs probe left %v in %s", entries, dir)
	}

	for _, tt := range []struct {
		build       binClass
		env         []string
		class, link string
	}{
		{binClasses[0], nil, "links", ""},
		{binClass{bin: func() string { return paFaultBin }}, []string{"PA_FAULT_LINK_ERRNO=EPERM"}, "nolinks", "EPERM"},
	} {
		r := runCmd(t, tt.build.command(t.TempDir(), tt.env, "fs", "probe", "--json", dir))
		if r.code != 0 {
			t.Fatalf("pa fs probe --json %v: exit %d, stderr %q", tt.env, r.code, r.stderr)
		}
		var got struct {
			Dir     string        `json:"dir"`
			Class   string        `json:"class"`
			Checks  []probe.Check `json:"checks"`
			Removed bool          `json:"removed"`
			Kernel  *struct {
				Outcome string `json:"outcome"`
				Claim   bool   `json:"claim"`
			} `json:"kernelLock"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
			t.Fatalf("pa fs probe --json: %v: %q", err, r.stdout)
		}
		if got.Dir != dir || got.Class != tt.class || len(got.Checks) != len(probe.Checks) || !got.Removed {
			t.Errorf("pa fs probe --json %v = %+v; want dir %s, class %s, %d checks, removed", tt.env, got, dir, tt.class, len(probe.Checks))
		}
		if k := got.Kernel; k == nil || k.Outcome != probe.KernelLockExcludes || !k.Claim {
			t.Errorf("pa fs probe --json %v: kernelLock %+v; want outcome excludes, claim true", tt.env, k)
		}
		for _, ck := range got.Checks {
			if ck.Name == probe.CheckLink && ck.Errno != tt.link {
				t.Errorf("link check %+v; want errno %q", ck, tt.link)
			}
		}
		if tt.class == "nolinks" {
			r := runCmd(t, tt.build.command(t.TempDir(), tt.env, "fs", "probe", dir))
			if !strings.Contains(r.stdout, "class:  nolinks (link() fails with EPERM") {
				t.Errorf("pa fs probe with link() refused:\n%s", r.stdout)
			}
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("pa fs probe --json left %v in %s", entries, dir)
	}
}

// A missing folder, a file, or no DIR at all is a usage error (exit 1) that
// creates nothing.
func TestFSProbeUsage(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c := binClasses[0]
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"fs", "probe", filepath.Join(dir, "missing")}, "pa: fs probe: no folder at "},
		{[]string{"fs", "probe", file}, "is not a folder"},
		{[]string{"fs", "probe"}, "pa: "},
	} {
		r := c.run(t, t.TempDir(), tt.args...)
		if r.code != 1 || !strings.Contains(r.stderr, tt.want) || r.stdout != "" {
			t.Errorf("pa %s: exit %d, stdout %q, stderr %q; want exit 1 and %q", tt.args, r.code, r.stdout, r.stderr, tt.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the usage errors left %v in %s; want only f", entries, dir)
	}
	r := c.run(t, t.TempDir(), "fs", "probe", "--help")
	if r.code != 0 || !strings.Contains(r.stdout, "Exit codes:") || !strings.Contains(r.stdout, "Example:") {
		t.Errorf("pa fs probe --help: exit %d, stdout %q", r.code, r.stdout)
	}
}

// The kernel lock's line says whether it excludes a second open, and what
// the lock makes of it: a claim only where it excludes and the file has a
// device and inode; else no claim, a judgement by identity alone, and a
// holder of another pid namespace never judged dead.
func TestFSProbeKernelLockLine(t *testing.T) {
	const claim = ": locks here record a kernel-lock claim; a judge refused it knows the holder alive, in whatever pid namespace of this host, and one granted it knows no process holds it"
	const noClaim = ": locks here record no kernel-lock claim and are judged by identity alone (boot, pid namespace, pid and start time); " +
		"a holder in another pid namespace of this host is then never judged dead, and only pa dispatch unlock --force removes its lock"
	for _, tt := range []struct {
		k    probe.KernelLock
		want string
	}{
		{probe.KernelLock{Outcome: probe.KernelLockExcludes, FileKey: true, Claim: true},
			"works and excludes a second open (refused while the first handle holds it)" + claim},
		{probe.KernelLock{Outcome: probe.KernelLockExcludes},
			"works and excludes a second open, but the volume gives no device and inode number of a file" + noClaim},
		{probe.KernelLock{Outcome: probe.KernelLockDoesNotExclude, FileKey: true},
			"works but does not exclude (a second open took it while the first handle held it)" + noClaim},
		{probe.KernelLock{Outcome: probe.KernelLockDoesNotExclude, Errno: "EIO", FileKey: true},
			"works but does not exclude (a second open's try failed with EIO, not EWOULDBLOCK)" + noClaim},
		{probe.KernelLock{Outcome: probe.KernelLockRefused, Errno: "ENOLCK", FileKey: true},
			"refused (ENOLCK)" + noClaim},
		{probe.KernelLock{Outcome: probe.KernelLockRefused},
			"refused" + noClaim},
		{probe.KernelLock{Outcome: probe.KernelLockNotTried},
			"not tried (the flock check could not make or open its file; the flock line says why)"},
	} {
		if got := kernelLockLine(tt.k); got != tt.want {
			t.Errorf("kernelLockLine(%+v) =\n  %q\nwant\n  %q", tt.k, got, tt.want)
		}
	}
}
