package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The estate comes from --home, else PA_HOME, else ~/.pa (created when
// missing); the agent from --agent, else PA_AGENT.
func TestHomeAndAgentFromTheEnvironment(t *testing.T) {
	home := t.TempDir() // stands for the user's home folder
	run := func(env []string, args ...string) result {
		cmd := exec.Command(paBin, args...)
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "PA_") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "USERPROFILE=") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		cmd.Env = append(cmd.Env, "HOME="+home, "USERPROFILE="+home)
		cmd.Env = append(cmd.Env, env...)
		return runCmd(t, cmd)
	}
	if r := run([]string{"PA_AGENT=envagent"}, "dispatch", "open"); r.code != 0 || r.stdout != "1\n" {
		t.Fatalf("PA_AGENT and the default home: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(home, ".pa", "agents", "envagent", "spawn-log.json")); err != nil {
		t.Errorf("the default estate ~/.pa: %v", err)
	}
	other := filepath.Join(t.TempDir(), "new", "estate")
	if r := run([]string{"PA_HOME=" + other}, "dispatch", "open", "--agent", "a"); r.code != 0 {
		t.Fatalf("PA_HOME: exit %d, stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(other, "agents", "a", "spawn-log.json")); err != nil {
		t.Errorf("PA_HOME was not used (or not created): %v", err)
	}
	flagHome := t.TempDir()
	if r := run([]string{"PA_HOME=" + other}, "--home", flagHome, "dispatch", "open", "--agent", "b"); r.code != 0 {
		t.Fatalf("--home: exit %d, stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(flagHome, "agents", "b", "spawn-log.json")); err != nil {
		t.Errorf("--home did not win over PA_HOME: %v", err)
	}
}
