package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"time"
)

// roleSpawn is the worker that runs one command and reports its time and
// peak memory (spawn.go).
const roleSpawn = "spawn"

// spawnParams are the command a spawner runs.
type spawnParams struct {
	Path string   `json:"path"`
	Args []string `json:"args"`
}

// spawnReport is a spawner's last line.
type spawnReport struct {
	Wall     time.Duration `json:"wall"`     // from the start of the command to its exit
	PeakRSS  int64         `json:"peakRSS"`  // the command's ru_maxrss, bytes
	SelfRSS  int64         `json:"selfRSS"`  // the peak of the spawner's own address space, bytes: a floor under PeakRSS
	ExitCode int           `json:"exitCode"` // the command's exit code
	Stdout   string        `json:"stdout"`
	Stderr   string        `json:"stderr"`
}

// spawnWorker runs the command of the parameters and reports it. It exists
// because Linux's ru_maxrss of a child is at least the peak resident memory
// of the address space it was started in (exec records the old address
// space's high-water mark, and os/exec starts a child in its parent's
// address space, vfork-style): a child of the harness, which holds the
// 100k-record inputs in memory, would report the harness's peak. A spawner
// is a small fresh process; the peak of its own address space (SelfRSS) is
// reported beside the command's, as the floor under it.
func spawnWorker(raw []byte) error {
	var p spawnParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return fmt.Errorf("parameters: %w", err)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(p.Path, p.Args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	rep := spawnReport{Wall: time.Since(start), Stdout: stdout.String(), Stderr: stderr.String()}
	if cmd.ProcessState == nil {
		return fmt.Errorf("running %s: %w", p.Path, err)
	}
	rep.PeakRSS, rep.SelfRSS, rep.ExitCode = peakRSS(cmd.ProcessState), selfPeakRSS(), cmd.ProcessState.ExitCode()
	return say(rep)
}

// spawn runs path with args through a spawner and returns its report.
func spawn(path string, args ...string) (spawnReport, error) {
	ch, err := startChild(roleSpawn, spawnParams{Path: path, Args: args})
	if err != nil {
		return spawnReport{}, err
	}
	var rep spawnReport
	if err := ch.next(&rep, 10*time.Minute); err != nil {
		ch.kill()
		return spawnReport{}, err
	}
	return rep, ch.wait()
}
