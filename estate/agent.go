package estate

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxAgentBytes is the longest agent name, in bytes: a name is one folder
// name, and local file systems allow 255 bytes there.
const MaxAgentBytes = 255

// ErrInvalidAgent is matched (errors.Is) by every *AgentError.
var ErrInvalidAgent = errors.New("invalid agent name")

// AgentError is a usage error: the agent name is not one safe path segment.
// Nothing was read or written when it is returned.
type AgentError struct {
	// Agent is the name as given (it may hold control characters: print it
	// with %q or through termsafe.Value).
	Agent string
	// Reason says which rule the name breaks.
	Reason string
}

// Error quotes the name and names the rule it breaks.
func (e *AgentError) Error() string {
	shown := e.Agent
	if len(shown) > 64 {
		shown = shown[:64] + "..."
	}
	return fmt.Sprintf("invalid agent name %s: %s", strconv.QuoteToASCII(shown), e.Reason)
}

// Is makes errors.Is(err, ErrInvalidAgent) true.
func (e *AgentError) Is(target error) bool { return target == ErrInvalidAgent }

// ValidateAgent checks that agent is a single safe path segment: not empty,
// at most [MaxAgentBytes] bytes of valid UTF-8, no '/' or '\\', no NUL or
// other control character, not starting with '.' (so neither "." nor ".."),
// and no white space at its start or end (a name of spaces only among them:
// such a name is easy to type by mistake and hard to see in a message).
// It returns nil or an *AgentError.
func ValidateAgent(agent string) error {
	bad := func(reason string) error { return &AgentError{Agent: agent, Reason: reason} }
	switch {
	case agent == "":
		return bad("it is empty")
	case len(agent) > MaxAgentBytes:
		return bad(fmt.Sprintf("it is %d bytes long, more than %d", len(agent), MaxAgentBytes))
	case !utf8.ValidString(agent):
		return bad("it is not valid UTF-8")
	case strings.HasPrefix(agent, "."):
		return bad("it starts with '.'")
	case strings.ContainsAny(agent, `/\`):
		return bad("it holds a '/' or '\\'")
	case strings.IndexFunc(agent, unicode.IsControl) >= 0:
		return bad("it holds a NUL or another control character")
	case strings.IndexFunc(agent, isFormat) >= 0:
		return bad("it holds an invisible format character (such as a bidirectional control)")
	case strings.TrimFunc(agent, unicode.IsSpace) == "":
		return bad("it is only white space")
	case strings.TrimLeftFunc(agent, unicode.IsSpace) != agent:
		return bad("it starts with white space")
	case strings.TrimRightFunc(agent, unicode.IsSpace) != agent:
		return bad("it ends with white space")
	}
	return nil
}

// isFormat reports the invisible format characters (Unicode category Cf:
// bidirectional controls, zero-width joiners, ...), which would make a name
// print differently from what it is.
func isFormat(r rune) bool { return unicode.Is(unicode.Cf, r) }
