package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/alecthomas/kong"
	kongcompletion "github.com/jotaen/kong-completion"
	"github.com/posener/complete"

	"github.com/pa-toolkit/pa/estate"
)

// completionCmd is `pa completion SHELL`: it prints the code that makes
// SHELL complete pa's commands, flags and agent names. The completions
// themselves are answered by pa (registerCompletion): the shell runs pa with
// COMP_LINE set, and pa prints the candidates instead of running a command.
type completionCmd struct {
	Shell string `arg:"" enum:"bash,zsh,fish" type:"shell" help:"The shell to print the code for: bash, zsh or fish." placeholder:"SHELL"`
}

// Help is the command's long help.
func (c *completionCmd) Help() string {
	return `Prints the code that makes bash, zsh or fish complete pa's commands, their
flags and, after --agent, the agents of the estate (the line's --home, else
$PA_HOME or ~/.pa). The code runs this pa binary (by its absolute path) to answer each completion,
so print it from the pa you will keep, not from go run.

Load it in the running shell with the line for yours:
  bash:  source <(pa completion bash)
  zsh:   source <(pa completion zsh)     (after compinit)
  fish:  pa completion fish | source
To keep it, add that line (not the code it prints) to the shell's start
file, so that each new shell loads the code of the pa installed then:
  bash:  echo 'source <(pa completion bash)' >> ~/.bashrc
  zsh:   echo 'source <(pa completion zsh)' >> ~/.zshrc
  fish:  echo 'pa completion fish | source' >> ~/.config/fish/config.fish

Exit codes: 0 printed; 1 usage (a shell other than bash, zsh or fish).

Example:
  echo 'source <(pa completion bash)' >> ~/.bashrc`
}

// Run prints the shell's code.
func (c *completionCmd) Run(out *output) error {
	bin, err := os.Executable()
	if err == nil {
		bin, err = filepath.Abs(bin)
	}
	if err != nil {
		return fail(exitUsage, "completion: cannot tell where this pa binary is: %v", err)
	}
	_, err = fmt.Fprint(out.stdout, completionCode(c.Shell, bin))
	return err
}

// completionCode is the code that makes shell complete pa by running bin
// with COMP_LINE set (the protocol of github.com/posener/complete, which
// answers in registerCompletion). bin is quoted for the shell.
func completionCode(shell, bin string) string {
	q := shellQuote(bin)
	switch shell {
	case "bash":
		return "complete -o default -o bashdefault -C " + q + " pa\n"
	case "zsh":
		return "autoload -U +X bashcompinit && bashcompinit\n" +
			"complete -o default -o bashdefault -C " + q + " pa\n"
	default: // fish
		return "function __pa_complete\n" +
			"    set -lx COMP_LINE (commandline -cp)\n" +
			"    test -z (commandline -ct)\n" +
			"    and set COMP_LINE \"$COMP_LINE \"\n" +
			"    " + q + "\n" +
			"end\n" +
			"complete -f -c pa -a \"(__pa_complete)\"\n"
	}
}

// shellQuote quotes s in single quotes for bash, zsh and fish alike.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// registerCompletion answers a completion request when the shell runs pa
// with COMP_LINE set: it prints the candidates, one a line, and ends run
// with exit 0 through kong's exit hook. Without COMP_LINE it does nothing.
// Agent names are predicted from the estate named by the line's --home, else
// $PA_HOME (or ~/.pa), read-only; folders for --home and fs probe.
func registerCompletion(parser *kong.Kong) {
	if os.Getenv("COMP_LINE") == "" {
		return
	}
	kongcompletion.Register(parser,
		kongcompletion.WithPredictor("agent", complete.PredictFunc(predictAgents)),
		kongcompletion.WithPredictor("dir", complete.PredictDirs("*")),
	)
}

// predictAgents lists the agents of the estate the line being completed
// names (its --home, as typed: a leading ~/ is the user's home folder, a
// relative path is from the shell's folder), else $PA_HOME, else ~/.pa: the
// folders under agents/ whose names are valid agent names. It creates and
// changes nothing, and lists nothing when there is no estate.
func predictAgents(complete.Args) []string {
	// The predictor's Args hold only the words after the subcommand, so the
	// global --home is read from the whole line the shell gave.
	home, ok := homeOnLine(lineWords())
	if !ok {
		home = os.Getenv("PA_HOME")
	}
	if home == "" {
		dir, err := os.UserHomeDir()
		if err != nil {
			return nil
		}
		home = filepath.Join(dir, ".pa")
	}
	entries, err := os.ReadDir(filepath.Join(home, "agents"))
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() && estate.ValidateAgent(e.Name()) == nil {
			names = append(names, e.Name())
		}
	}
	return names
}

// lineWords are the words of the line being completed (COMP_LINE up to
// COMP_POINT, split at white space as github.com/posener/complete splits
// it: a quoted value with a space in it is not one word), without the word
// being typed.
func lineWords() []string {
	line := os.Getenv("COMP_LINE")
	if p, err := strconv.Atoi(os.Getenv("COMP_POINT")); err == nil && p >= 0 && p <= len(line) {
		line = line[:p]
	}
	words := strings.Fields(line)
	if len(words) > 0 && !strings.HasSuffix(line, " ") && !strings.HasSuffix(line, "\t") {
		words = words[:len(words)-1]
	}
	return words
}

// homeOnLine is the estate folder that the words of a line being completed
// give with --home DIR or --home=DIR (the last one wins, as when pa runs).
// A leading ~/ (or a lone ~) of a DIR that is a word of its own is made the
// user's home folder, as the shell makes it when the line runs; in
// --home=~/DIR the shell leaves the ~ as it is (bash, zsh and fish expand
// a ~ only at a word's start), so pa takes a folder named ~ and so does
// this. ok is false when no --home is typed, or its value is empty.
func homeOnLine(words []string) (home string, ok bool) {
	word := false // home is a word of its own, which the shell expands
	for i, w := range words {
		switch {
		case w == "--home" && i+1 < len(words):
			home, word = words[i+1], true
		case strings.HasPrefix(w, "--home="):
			home, word = strings.TrimPrefix(w, "--home="), false
		}
	}
	if home == "" {
		return "", false
	}
	if word && (home == "~" || strings.HasPrefix(home, "~/")) {
		dir, err := os.UserHomeDir()
		if err != nil {
			return "", false
		}
		home = filepath.Join(dir, strings.TrimPrefix(home, "~"))
	}
	return home, true
}
