package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pa-toolkit/pa/cmd/pa/internal/probe"
	"github.com/pa-toolkit/pa/internal/termsafe"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// fsCmd is `pa fs`.
type fsCmd struct {
	Probe probeCmd `cmd:"" help:"Report what the volume holding a folder does with what the lock relies on."`
}

// Help is the group's long help.
func (fsCmd) Help() string {
	return `The lock relies on a local file system: an exclusive create, link() or its
absence, a rename over a file, and a listing that shows a file just created;
a kernel lock that excludes a second open proves a holder alive in any pid
namespace. probe tells you what your volume does with each.

Exit codes: those of pa fs probe (0 probed; 1 usage, or a folder missing, not
a folder or not writable); pa fs without a command is a usage error (exit 1).

Example:
  pa fs probe ~/.pa`
}

// probeCmd is `pa fs probe DIR`.
type probeCmd struct {
	Dir  string `arg:"" help:"A folder on the volume to probe (it must exist)." placeholder:"DIR" predictor:"dir"`
	JSON bool   `name:"json" help:"Print the report as one JSON object."`
}

// Help is the command's long help.
func (c *probeCmd) Help() string {
	return `Probes the volume that holds DIR, in a folder DIR/.pa-probe-<random> that it
creates and removes (it never touches anything else): an exclusive create;
link(), which gives the lock's class (hard links, or none: then the lock
publishes as a directory renamed into place) and the errno of a refusal; a rename over a
file, and over a file still open; a remove of a file still open (a FUSE volume
shows a .fuse_hidden* file meanwhile); a rename of a directory onto a file,
an empty and a non-empty directory; a directory fsync; an advisory lock
(flock); and whether a listing taken right after a create shows it.

The line "kernel lock:" says whether the volume's kernel lock (flock;
LockFileEx on Windows) works and excludes a second open of the same file (a
second open's non-blocking try refused while the first handle holds it), works
but does not exclude, or is refused (with its errno). Only where it excludes
does a lock here record a kernel-lock claim: a judge refused that lock knows
the holder alive, in whatever pid namespace of this host, and one granted it
knows no process holds it. Elsewhere locks record no claim and are judged by
identity alone (boot, pid namespace, pid and start time): a holder in another
pid namespace of this host is then never judged dead.

It decides nothing: every hold of the lock learns the class again. Output:
one line a check (name, outcome, what was found); --json: one object with
"class", "checks" [{name, outcome, errno, detail, stray}], the volume and
"kernelLock" {outcome: excludes, does-not-exclude, refused or not-tried;
errno; fileKey; claim}.

Exit codes: 0 probed (whatever was found); 1 usage, or DIR missing, not a
folder or not writable.

Example:
  pa fs probe /Volumes/USB`
}

// jsonProbe is the --json output.
type jsonProbe struct {
	Dir    string `json:"dir"`
	Volume volume `json:"volume"`
	probe.Report
}

// Run probes c.Dir.
func (c *probeCmd) Run(out *output) error {
	dir, err := filepath.Abs(c.Dir)
	if err != nil {
		return fail(exitUsage, "%s", termsafe.Escape(err.Error()))
	}
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fail(exitUsage, "fs probe: no folder at %s", shown(dir))
	case err != nil:
		return fail(exitUsage, "fs probe: %s", termsafe.Escape(err.Error()))
	case !fi.IsDir():
		return fail(exitUsage, "fs probe: %s is not a folder", shown(dir))
	}
	o, err := osfs.New(dir)
	if err != nil {
		return fail(exitUsage, "fs probe: %s", termsafe.Escape(err.Error()))
	}
	defer o.Close()
	fsys, err := faultFS(o)
	if err != nil {
		return fail(exitUsage, "%s", termsafe.Escape(err.Error()))
	}
	r, err := probe.Run(fsys)
	if err != nil {
		return fail(exitUsage, "fs probe: cannot make a folder to probe in %s: %s", shown(dir), termsafe.Escape(err.Error()))
	}
	v := volumeOf(dir)
	if c.JSON {
		_, err := fmt.Fprintf(out.stdout, "%s\n", marshalJSON(jsonProbe{Dir: dir, Volume: v, Report: r}))
		return err
	}
	w := out.stdout
	fmt.Fprintf(w, "volume: %s\n", v.describe(dir))
	fmt.Fprintf(w, "class:  %s\n", classLine(r))
	fmt.Fprintf(w, "kernel lock: %s\n", kernelLockLine(r.KernelLock))
	for _, ck := range r.Checks {
		fmt.Fprintf(w, "%-28s %-15s %s\n", ck.Name, ck.Outcome, termsafe.Escape(ck.Detail))
	}
	if r.Removed {
		fmt.Fprintf(w, "folder: %s made and removed\n", termsafe.Escape(r.Folder))
	} else {
		fmt.Fprintf(w, "folder: %s left in place: %s", termsafe.Escape(r.Folder), termsafe.Escape(r.RemoveErr))
		if len(r.Left) > 0 {
			fmt.Fprintf(w, " (it holds names pa did not create: %s)", termsafe.Escape(fmt.Sprint(r.Left)))
		}
		fmt.Fprintln(w)
	}
	return nil
}

// classLine says the lock's class on the volume.
func classLine(r probe.Report) string {
	for _, ck := range r.Checks {
		if ck.Name != probe.CheckLink {
			continue
		}
		switch r.Class {
		case "links":
			return "links (link() works; the lock publishes by link())"
		case "nolinks":
			return "nolinks (link() fails with " + ck.Errno + "; the lock publishes as a directory renamed into place)"
		}
		return "unknown (" + termsafe.Escape(ck.Detail) + ")"
	}
	return "unknown"
}

// kernelLockLine says whether the volume's kernel lock exists and excludes
// a second open of the same file, and what the lock makes of it.
func kernelLockLine(k probe.KernelLock) string {
	const noClaim = ": locks here record no kernel-lock claim and are judged by identity alone " +
		"(boot, pid namespace, pid and start time); a holder in another pid namespace of this host " +
		"is then never judged dead, and only pa dispatch unlock --force removes its lock"
	switch k.Outcome {
	case probe.KernelLockExcludes:
		if !k.Claim {
			return "works and excludes a second open, but the volume gives no device and inode number of a file" + noClaim
		}
		return "works and excludes a second open (refused while the first handle holds it): locks here record " +
			"a kernel-lock claim; a judge refused it knows the holder alive, in whatever pid namespace of this host, " +
			"and one granted it knows no process holds it"
	case probe.KernelLockDoesNotExclude:
		if k.Errno != "" {
			return "works but does not exclude (a second open's try failed with " + termsafe.Escape(k.Errno) + ", not EWOULDBLOCK)" + noClaim
		}
		return "works but does not exclude (a second open took it while the first handle held it)" + noClaim
	case probe.KernelLockRefused:
		if k.Errno != "" {
			return "refused (" + termsafe.Escape(k.Errno) + ")" + noClaim
		}
		return "refused" + noClaim
	}
	return "not tried (the flock check could not make or open its file; the flock line says why)"
}

// volume is what the system says of the volume holding a folder: its file
// system type, its source (a device) and where it is mounted, where known.
type volume struct {
	Type       string `json:"type,omitempty"`
	Source     string `json:"source,omitempty"`
	MountPoint string `json:"mountPoint,omitempty"`
}

func (v volume) describe(dir string) string {
	s := shown(dir)
	if v.Type == "" {
		return s
	}
	s += " (" + termsafe.Escape(v.Type)
	if v.Source != "" {
		s += " on " + termsafe.Escape(v.Source)
	}
	if v.MountPoint != "" {
		s += ", mounted at " + termsafe.Escape(v.MountPoint)
	}
	return s + ")"
}
