package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// What pa prints as JSON writes '<', '>' and '&' as they are, not as the
// \u003c, \u003e and \u0026 that json.Marshal writes for HTML: open --json,
// list --json, board check --json and --hook-envelope.
func TestJSONOutputKeepsHTMLCharacters(t *testing.T) {
	c := binClasses[0]
	home := t.TempDir()
	title := `<b>fish & chips</b>`
	r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--title", title, "--json")
	outs := map[string]string{"open --json": r.stdout}
	host := "<host&>"
	estatetest.WriteFile(t, home, logName+".lock", lockJSON(locktest.LivePID(t), host, time.Now().Add(-time.Hour)))
	chtimes(t, home, logName+".lock", time.Now().Add(-time.Hour))
	outs["list --json"] = c.run(t, home, "dispatch", "list", "--json").stdout
	outs["check --json"] = c.run(t, home, "board", "check", "--json").stdout
	outs["check --hook-envelope"] = c.run(t, home, "board", "check", "--hook-envelope").stdout
	for name, out := range outs {
		if !json.Valid([]byte(out)) {
			t.Errorf("%s: %q is not valid JSON", name, out)
		}
		if strings.Contains(out, `\u003c`) || strings.Contains(out, `\u003e`) || strings.Contains(out, `\u0026`) {
			t.Errorf("%s: %q; want <, > and & as they are", name, out)
		}
	}
	for _, name := range []string{"open --json", "list --json"} {
		if !strings.Contains(outs[name], title) {
			t.Errorf("%s: %q; want the title %q in it as it is", name, outs[name], title)
		}
	}
	if !strings.Contains(outs["check --json"], `"hostname":"`+host+`"`) {
		t.Errorf("check --json: %q; want the hostname %q as it is", outs["check --json"], host)
	}
	if !strings.Contains(outs["check --hook-envelope"], `on host \"`+host+`\"`) {
		t.Errorf("check --hook-envelope: %q; want the hostname %q as it is", outs["check --hook-envelope"], host)
	}
}
