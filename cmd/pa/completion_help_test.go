package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// pa completion --help tells to add the line that loads the code to the
// start file, and its example does that: run as it is, it appends the
// source line (not the code) to ~/.bashrc, and a shell that reads that
// file completes pa.
func TestCompletionHelpExampleAddsTheLine(t *testing.T) {
	r := binClasses[0].run(t, t.TempDir(), "completion", "--help")
	const example = "echo 'source <(pa completion bash)' >> ~/.bashrc"
	if r.code != 0 || !strings.Contains(r.stdout, "Example:\n\n    "+example+"\n") {
		t.Fatalf("completion --help: exit %d, stdout %q; want the example %q", r.code, r.stdout, example)
	}
	for _, line := range []string{example, "echo 'source <(pa completion zsh)' >> ~/.zshrc", "echo 'pa completion fish | source' >> ~/.config/fish/config.fish"} {
		if !strings.Contains(r.stdout, line) {
			t.Errorf("completion --help: %q; want %q in it", r.stdout, line)
		}
	}
	bash := shellOrSkip(t, "bash")
	home := t.TempDir()
	env := append(os.Environ(), "HOME="+home, "PATH="+filepath.Dir(paBin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	cmd := exec.Command(bash, "--norc", "-c", example)
	cmd.Env = env
	if r := runCmd(t, cmd); r.code != 0 {
		t.Fatalf("the example: exit %d, stderr %q", r.code, r.stderr)
	}
	if got := readFile(t, home, ".bashrc"); got != "source <(pa completion bash)\n" {
		t.Errorf("~/.bashrc holds %q; want the source line alone", got)
	}
	cmd = exec.Command(bash, "--norc", "-c", "source ~/.bashrc && complete -p pa")
	cmd.Env = env
	if r := runCmd(t, cmd); r.code != 0 || !strings.Contains(r.stdout, "-C "+shellQuote(paBin)+" pa") {
		t.Errorf("a shell reading ~/.bashrc: exit %d, stdout %q, stderr %q; want pa completed through %s", r.code, r.stdout, r.stderr, paBin)
	}
}
