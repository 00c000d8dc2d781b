package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/spawnlog"
)

func main() {
	if os.Getenv(launchEnv) != "" {
		launch(os.Args[1:])
		return
	}
	paBin := flag.String("pa", "", "the pa binary to measure (default: build ./cmd/pa into a temp folder)")
	sizes := flag.String("sizes", "1000,10000,100000", "comma-separated record counts")
	runs := flag.Int("runs", 5, "measured rounds per size (each: one write-once, one open)")
	dir := flag.String("dir", "", "folder for the estates (default: a new temp folder, removed at the end)")
	flag.Parse()
	if err := run(*paBin, *sizes, *runs, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "growth:", err)
		os.Exit(1)
	}
}

func run(paBin, sizes string, runs int, dir string) error {
	if dir == "" {
		d, err := os.MkdirTemp("", "pa-growth-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	if paBin == "" {
		paBin = filepath.Join(dir, "pa")
		build := exec.Command("go", "build", "-o", paBin, "github.com/pa-toolkit/pa/cmd/pa")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("go build: %w", err)
		}
	}
	fmt.Printf("%-8s %12s %12s %12s %12s %8s %8s %12s %8s\n", "records", "file bytes", "write once", "both files", "pa open", "time x", "floor x", "maxrss", "mem x")
	for _, s := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 0 {
			return fmt.Errorf("size %q: want a record count", s)
		}
		r, err := measure(paBin, filepath.Join(dir, strconv.Itoa(n)), n, runs)
		if err != nil {
			return fmt.Errorf("%d records: %w", n, err)
		}
		fmt.Printf("%-8d %12d %12s %12s %12s %7.2fx %7.2fx %11.1fM %7.2fx\n", n, r.size, r.once.Round(10*time.Microsecond), r.both.Round(10*time.Microsecond),
			r.open.Round(10*time.Microsecond), float64(r.open)/float64(r.once), float64(r.both)/float64(r.once),
			float64(r.maxrss)/(1<<20), float64(r.maxrss)/float64(r.size))
	}
	fmt.Println("time x: pa open / write once; floor x: both files / write once; mem x: maxrss / file bytes")
	fmt.Println("goals (issue 6) at 100k records: time x at most 3, mem x at most 4")
	return nil
}

// result is one size's medians and the largest maxrss of its opens.
type result struct {
	size             int64
	once, both, open time.Duration
	maxrss           int64 // bytes
}

// measure makes the estate of n records in home, then runs a warm-up
// round and runs rounds of (write once, open), interleaved.
func measure(paBin, home string, n, runs int) (result, error) {
	logPath, err := makeEstate(home, n)
	if err != nil {
		return result{}, err
	}
	data, err := os.ReadFile(logPath)
	if err != nil {
		return result{}, err
	}
	boardPath := filepath.Join(filepath.Dir(logPath), "board", "board.json")
	copyPath := filepath.Join(filepath.Dir(logPath), "write-once.json")
	boardCopy := filepath.Join(filepath.Dir(logPath), "board", "write-once.json")
	var once, both, open []time.Duration
	var peak int64
	for i := range runs + 1 { // round 0 warms the page cache and the binary
		d, err := writeOnce(copyPath, data)
		if err != nil {
			return result{}, err
		}
		b, err := bothFiles(logPath, boardPath, copyPath, boardCopy)
		if err != nil {
			return result{}, err
		}
		o, rss, err := openOnce(paBin, home)
		if err != nil {
			return result{}, err
		}
		if i == 0 {
			continue
		}
		once, both, open = append(once, d), append(both, b), append(open, o)
		peak = max(peak, rss)
	}
	return result{size: int64(len(data)), once: median(once), both: median(both), open: median(open), maxrss: peak}, nil
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// makeEstate writes home/agents/demo/spawn-log.json with n records and its
// board with n items, in the shape pa writes them (indented two spaces, a
// final newline), and returns the spawn-log's path.
func makeEstate(home string, n int) (string, error) {
	agentDir := filepath.Join(home, "agents", "demo")
	if err := os.MkdirAll(filepath.Join(agentDir, "board"), 0o755); err != nil {
		return "", err
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	recs := make([]spawnlog.Record, n)
	items := make([]board.Item, n)
	for i := range n {
		at := start.Add(time.Duration(i) * time.Second).Format("2006-01-02T15:04:05.000Z")
		title := "dispatch " + strconv.Itoa(i+1) + ": review the change"
		recs[i] = spawnlog.Record{ID: i + 1, Agent: "demo", Title: title, OpenedAt: at, PID: 40000 + i%1000, Hostname: "build-host"}
		items[i] = board.Item{DispatchID: i + 1, Title: title, AddedAt: at}
	}
	logDoc := struct {
		Version int               `json:"version"`
		NextID  int               `json:"nextId"`
		Records []spawnlog.Record `json:"records"`
	}{1, n + 1, recs}
	boardDoc := struct {
		Version int          `json:"version"`
		Items   []board.Item `json:"items"`
	}{1, items}
	logPath := filepath.Join(agentDir, "spawn-log.json")
	for path, doc := range map[string]any{logPath: logDoc, filepath.Join(agentDir, "board", "board.json"): boardDoc} {
		b, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			return "", err
		}
	}
	return logPath, nil
}

// writeOnce is the floor: the file written the way a commit writes it
// (temp file, write, fsync, close, rename, folder fsync), with no lock and
// no parse.
func writeOnce(path string, data []byte) (time.Duration, error) {
	t0 := time.Now()
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return 0, err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		return 0, err
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return 0, err
	}
	err = d.Sync()
	d.Close()
	return time.Since(t0), err
}

// launchEnv makes this program the launcher of one pa process: see
// openOnce.
const launchEnv = "PA_GROWTH_LAUNCH"

// bothFiles is the input and output any open has: the spawn-log and the
// board read, then each written once (as writeOnce does) to a copy beside
// it, with no lock, no parse and no process start. It reads in this
// process, whose memory is warm, so it is a little below what a fresh
// process pays.
func bothFiles(logPath, boardPath, logCopy, boardCopy string) (time.Duration, error) {
	t0 := time.Now()
	logData, err := os.ReadFile(logPath)
	if err != nil {
		return 0, err
	}
	boardData, err := os.ReadFile(boardPath)
	if err != nil {
		return 0, err
	}
	if _, err := writeOnce(logCopy, logData); err != nil {
		return 0, err
	}
	if _, err := writeOnce(boardCopy, boardData); err != nil {
		return 0, err
	}
	return time.Since(t0), nil
}

// openOnce runs one whole `pa dispatch open` and returns its wall time and
// its peak resident memory in bytes. It runs it from a launcher, a fresh
// process of this program, because on Linux a child's ru_maxrss starts
// from the resident size of the process it was started from (Go starts a
// child by clone with a shared address space, then exec, and the kernel
// keeps that address space's high-water mark): started from here, with the
// estate's bytes in memory, every pa would report at least this process's
// size. The launcher is small; its own child's figure is pa's.
func openOnce(paBin, home string) (time.Duration, int64, error) {
	self, err := os.Executable()
	if err != nil {
		return 0, 0, err
	}
	cmd := exec.Command(self, paBin, "--home", home, "dispatch", "open", "--agent", "demo", "--title", "growth", "--wait", "0s")
	cmd.Env = append(os.Environ(), launchEnv+"=1")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return 0, 0, fmt.Errorf("pa dispatch open: %w: %s", err, stderr.String())
	}
	var ns, rss int64
	if _, err := fmt.Sscan(stdout.String(), &ns, &rss); err != nil {
		return 0, 0, fmt.Errorf("launcher said %q: %w", stdout.String(), err)
	}
	return time.Duration(ns), rss, nil
}

// launch runs args (pa and its arguments) and prints its wall time in
// nanoseconds and its maxrss in bytes; pa's own stderr is passed on, and a
// failure exits 1.
func launch(args []string) {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = io.Discard, os.Stderr
	t0 := time.Now()
	err := cmd.Run()
	d := time.Since(t0)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(d.Nanoseconds(), maxRSS(cmd.ProcessState))
}
