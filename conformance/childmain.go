package conformance

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/spawnlog"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// runChild is the child's side: it does what spec says, telling the parent
// on stdout, one line at a time, and returns its exit code ("done ok": 0).
func runChild(encoded string) int {
	var spec childSpec
	if err := json.Unmarshal([]byte(encoded), &spec); err != nil {
		fmt.Printf("done bad spec: %v\n", err)
		return 2
	}
	say := func(format string, args ...any) {
		// One write a line, unbuffered: a line said before a kill is out.
		_, _ = os.Stdout.WriteString(fmt.Sprintf(format, args...) + "\n")
	}
	o, err := osfs.New(spec.Root)
	if err != nil {
		say("done %v", err)
		return 1
	}
	defer o.Close()
	fsys := classView(o, spec.Class, spec.Shim)
	if spec.KernelLocks != "" {
		fsys = withKernelLocks(fsys, spec.KernelLocks)
	}
	if spec.Report {
		fsys = reporting(fsys, say)
	}
	in := bufio.NewReader(os.Stdin)
	seen := map[lockspec.Step]int{}
	onStep := func(s lockspec.Step) {
		seen[s]++
		if spec.Report {
			say("step %s", s)
		}
		if slices.Contains(spec.Kill, s) {
			say("kill %s", s)
			killSelf()
		}
		for _, p := range spec.Pause {
			if p.Step == s && seen[s] == max(p.Nth, 1) {
				paused := time.Now() // before the line: the parent hears it after this
				say("pause %s", s)
				if _, err := in.ReadString('\n'); err != nil {
					say("done the parent is gone: %v", err)
					os.Exit(3)
				}
				say("resumed %s after %d", s, time.Since(paused).Nanoseconds())
			}
		}
	}
	opts := locking.Options{Timeout: spec.Timeout}
	lockspec.SetOnStep(&opts, onStep)
	ctx := context.Background()
	switch spec.Role {
	case roleWrite:
		_, err = spawnlog.Append(ctx, fsys, agent, spec.Title, nil, opts)
	case roleUnlock:
		var h locking.Holder
		if h, err = locking.Inspect(fsys, logName, opts); err == nil {
			err = locking.Unlock(ctx, fsys, logName, h, spec.Force, opts)
		}
	default:
		err = fmt.Errorf("unknown role %q", spec.Role)
	}
	if err != nil {
		say("done %s", strings.ReplaceAll(err.Error(), "\n", " "))
		return 1
	}
	say("done ok")
	return 0
}

// reporting wraps fsys so that every remove, rename and link is said after
// it ran: "op remove NAME ok", "op rename OLD NEW ok", "op link OLD NEW
// error TEXT".
func reporting(fsys vfs.FS, say func(string, ...any)) vfs.FS {
	f := faultfs.New(fsys)
	f.After(func(ev faultfs.Event) error {
		switch ev.Op {
		case faultfs.OpRemove, faultfs.OpRename, faultfs.OpLink:
		default:
			return nil
		}
		result := "ok"
		if ev.Err != nil {
			result = "error " + strings.ReplaceAll(ev.Err.Error(), "\n", " ")
		}
		names := ev.Name
		if ev.NewName != "" {
			names += " " + ev.NewName
		}
		say("op %s %s %s", ev.Op, names, result)
		return nil
	})
	return f
}
