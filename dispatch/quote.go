package dispatch

import "strings"

// ShellQuote returns s as one word for a POSIX shell: unchanged when it is
// made only of letters, digits and -_.,:@%+=/ (and not empty), otherwise in
// single quotes with each ' written as '\”. Messages use it so that the
// command they name can be pasted as it is.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,:@%+=/") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// AgentFlag is the --agent flag for agent in a command a message names: the
// whole name, shell-quoted when it needs it, and written --agent=NAME when
// the name starts with '-' (so it is not read as a flag of its own).
func AgentFlag(agent string) string {
	if strings.HasPrefix(agent, "-") {
		return "--agent=" + ShellQuote(agent)
	}
	return "--agent " + ShellQuote(agent)
}

// Program is how every command a message names starts: `pa` in the default
// estate (home ""), `pa --home DIR` in any other, DIR whole and
// shell-quoted (written --home=DIR when it starts with '-'), so that the
// command acts on the same estate when it is pasted into another shell,
// whatever that shell's PA_HOME. home should be absolute for the same
// reason.
func Program(home string) string {
	switch {
	case home == "":
		return "pa"
	case strings.HasPrefix(home, "-"):
		return "pa --home=" + ShellQuote(home)
	}
	return "pa --home " + ShellQuote(home)
}
