package main

import (
	"errors"
	"io"
	"strings"

	"github.com/alecthomas/kong"
	"github.com/pa-toolkit/pa/internal/termsafe"
)

// parseError turns an error of kong's Parse into pa's line (exit 1), in
// pa's words where kong's would puzzle an operator, and naming the help of
// the command the args got to (`see pa dispatch open --help`), not pa's:
//
//   - a bad flag value found by pa's mappers (mappers.go): their line alone;
//   - a required --agent left out: the command needs --agent NAME or
//     PA_AGENT;
//   - pa with no command: pa's help on stderr, and no line (with envelope,
//     the --hook-envelope in args, a line instead: the envelope holds it);
//   - a group with no command (pa dispatch): the commands it has;
//   - pa completion with no shell: the shells;
//   - anything else: kong's message, escaped for the terminal.
func parseError(err error, envelope bool, stderr io.Writer) error {
	if ue, ok := asUsageError(err); ok {
		return fail(exitUsage, "%s", ue.msg)
	}
	var pe *kong.ParseError
	var kctx *kong.Context
	var node *kong.Node
	if errors.As(err, &pe) && pe.Context != nil {
		kctx = pe.Context
		node = kctx.Selected()
		if node == nil {
			node = kctx.Model.Node
		}
	}
	msg := err.Error()
	if node == nil {
		return fail(exitUsage, "%s (see pa --help)", termsafe.Escape(msg))
	}
	path := node.Path() // "dispatch open", "" for pa itself
	see := "(see " + node.FullPath() + " --help)"
	if path == "" {
		path = "pa"
	}
	commands := subcommands(node)
	switch {
	case strings.HasPrefix(msg, "missing flags: ") && strings.Contains(msg, "--agent"):
		return fail(exitUsage, "%s needs --agent NAME, or PA_AGENT set to an agent's name %s", path, see)
	case strings.HasPrefix(msg, "expected ") && len(commands) > 0 && node.Parent == nil && !envelope:
		kctx.Kong.Stdout = stderr
		if err := kctx.PrintUsage(false); err != nil {
			return fail(exitUsage, "%s needs a command: %s %s", path, orList(commands), see)
		}
		return &exitError{code: exitUsage}
	case strings.HasPrefix(msg, "expected ") && len(commands) > 0:
		return fail(exitUsage, "%s needs a command: %s %s", path, orList(commands), see)
	case strings.HasPrefix(msg, "expected ") && node.Name == "completion":
		return fail(exitUsage, "completion: want bash, zsh or fish %s", see)
	}
	return fail(exitUsage, "%s %s", termsafe.Escape(msg), see)
}

// subcommands are the names of node's visible commands.
func subcommands(node *kong.Node) []string {
	var names []string
	for _, c := range node.Children {
		if c.Type == kong.CommandNode && !c.Hidden {
			names = append(names, c.Name)
		}
	}
	return names
}

// leafCommands are the paths of every command under node that runs
// (dispatch open, ..., version), in the order of the help.
func leafCommands(node *kong.Node) []string {
	var paths []string
	for _, c := range node.Children {
		if c.Type != kong.CommandNode || c.Hidden {
			continue
		}
		if sub := leafCommands(c); len(sub) > 0 {
			paths = append(paths, sub...)
			continue
		}
		paths = append(paths, c.Path())
	}
	return paths
}

// orList is names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
