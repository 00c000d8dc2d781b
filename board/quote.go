package board

import "strings"

// ShellQuote returns s as one word for a POSIX shell: unchanged when it is
// made only of letters, digits and -_.,:@%+= (and not empty), otherwise in
// single quotes with each ' written as '\”. Messages use it so that the
// command they name can be pasted as it is.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,:@%+=") == "" {
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
