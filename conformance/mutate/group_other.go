//go:build !unix

package main

import "os/exec"

// inGroup does nothing here: killGroup kills the go command alone.
func inGroup(cmd *exec.Cmd) {}

// killGroup kills cmd's process.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
