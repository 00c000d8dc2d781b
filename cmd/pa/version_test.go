package main

import (
	"runtime/debug"
	"testing"
)

func TestFormatVersion(t *testing.T) {
	info := func(v string, settings ...string) *debug.BuildInfo {
		bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/pa-toolkit/pa", Version: v}}
		for i := 0; i+1 < len(settings); i += 2 {
			bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
		}
		return bi
	}
	const rev = "866633c0f3b1e3d2a1b0c9d8e7f6a5b4c3d2e1f0"
	for _, tc := range []struct {
		name string
		set  string
		bi   *debug.BuildInfo
		ok   bool
		want string
	}{
		{"set by a release build", "v9.9.9", info("v1.2.0"), true, "v9.9.9"},
		{"go install at a version", "", info("v1.2.0"), true, "v1.2.0"},
		{"a checkout: the pseudo-version names the revision", "", info("v0.0.0-20261202052000-866633c0f3b1+dirty", "vcs.revision", rev, "vcs.modified", "true"), true, "v0.0.0-20261202052000-866633c0f3b1+dirty"},
		{"devel with a revision", "", info("(devel)", "vcs.revision", rev, "vcs.modified", "false"), true, "(devel) (revision 866633c0f3b1)"},
		{"devel, modified", "", info("(devel)", "vcs.revision", rev, "vcs.modified", "true"), true, "(devel) (revision 866633c0f3b1, modified)"},
		{"no build info", "", nil, false, "(devel)"},
	} {
		if got := formatVersion(tc.set, tc.bi, tc.ok); got != tc.want {
			t.Errorf("%s: %q; want %q", tc.name, got, tc.want)
		}
	}
}
