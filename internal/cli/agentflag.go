package cli

import (
	"fmt"
	"strings"

	"github.com/sitetxt/sitetxt/robots"
	"github.com/spf13/cobra"
)

// agentValue collects every --agent given, so that a command answering for
// one agent can refuse a second instead of silently keeping the last.
type agentValue struct{ all *[]string }

func (v agentValue) String() string {
	if v.all == nil || len(*v.all) == 0 {
		return globalAgent
	}
	return strings.Join(*v.all, ",")
}
func (v agentValue) Set(s string) error { *v.all = append(*v.all, s); return nil }
func (v agentValue) Type() string       { return "string" }

// agentFlag adds --agent to a command that answers for one agent (check,
// agents, diff, explain, datasets): p gets the agent, "*" when none is
// given. Given twice, the command stops before it reads anything (exit 2)
// and points to matrix, which answers for several agents.
func agentFlag(cmd *cobra.Command, p *string, usage string) {
	var all []string
	*p = globalAgent
	f := cmd.Flags().VarPF(agentValue{&all}, "agent", "", usage)
	f.DefValue = globalAgent
	_ = cmd.RegisterFlagCompletionFunc("agent", crawlerNames)
	prev := cmd.PreRunE
	cmd.PreRunE = func(c *cobra.Command, args []string) error {
		agent, err := oneAgent(c.Name(), all)
		if err != nil {
			return err
		}
		*p = agent
		if prev != nil {
			return prev(c, args)
		}
		return nil
	}
}

// oneAgent returns the one agent of a command that answers for one: "*"
// when none is given, a usage error when several are.
func oneAgent(cmd string, agents []string) (string, error) {
	switch len(agents) {
	case 0:
		return globalAgent, nil
	case 1:
		return agents[0], nil
	}
	return "", usageError("%s answers for one agent, and --agent was given %d times (sitetxt matrix answers for several)", cmd, len(agents))
}

// answersFor is the line text output prints once, before the answers of a
// command where one agent answers for many URLs (check, agents): "for
// Googlebot under google:". "*" is named as the rules every crawler follows.
func answersFor(agent string, prof robots.Profile) string {
	who := visible(agent)
	if agent == globalAgent {
		who = `"*" (the rules for every crawler)`
	}
	return fmt.Sprintf("for %s under %s:\n", who, prof)
}
