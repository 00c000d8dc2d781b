package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// After "--" the words are arguments, not flags: `fs probe -- --home=x`
// probes a folder named "--home=x" (missing here), and is no repeat of
// the --home given before.
func TestRepeatedFlagsStopAtDoubleDash(t *testing.T) {
	var o, e bytes.Buffer
	code := run(context.Background(), []string{"--home", t.TempDir(), "fs", "probe", "--", "--home=x"}, &o, &e)
	if strings.Contains(e.String(), "twice") || !strings.Contains(e.String(), "--home=x") {
		t.Errorf("fs probe -- --home=x: exit %d, stderr %q; want the probe's own error naming the folder --home=x, no repeat", code, e.String())
	}
}
