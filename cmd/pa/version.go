package main

import (
	"runtime/debug"
	"strings"
)

// versionString is pa's version as `pa version` prints it: the version a
// release build set (version), or else the module version and VCS
// revision of the build info, as `go version -m` shows them.
func versionString() string {
	bi, ok := debug.ReadBuildInfo()
	return formatVersion(version, bi, ok)
}

// formatVersion is versionString's text: set when it is not empty;
// otherwise the main module's version ("v1.2.0" for `go install
// .../cmd/pa@v1.2.0`, a pseudo-version such as
// "v0.0.0-20261202052000-866633c0f3b1+dirty" for a build in a checkout),
// followed by the VCS revision (12 hex) and ", modified" when the build
// info has one the version does not already name; "(devel)" when there
// is nothing to go on.
func formatVersion(set string, bi *debug.BuildInfo, ok bool) string {
	if set != "" {
		return set
	}
	if !ok || bi == nil {
		return "(devel)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev == "" || strings.Contains(v, rev) {
		return v
	}
	v += " (revision " + rev
	if modified {
		v += ", modified"
	}
	return v + ")"
}
