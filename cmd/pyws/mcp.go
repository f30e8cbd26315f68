package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pyws/pyws/api"
	"github.com/pyws/pyws/host/ratelimit"
	"github.com/pyws/pyws/host/tenants"
	"github.com/pyws/pyws/host/tiers"
)

// mcpCommand serves one local workspace over MCP on stdin and stdout to
// the agent that started it: no key (the agent's user owns the process),
// the limits of --tier. Logs go to stderr; stdout carries only protocol.
func mcpCommand(args []string) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	kf := addKernelFlags(fs)
	tierName := fs.String("tier", string(tiers.Enterprise), "the tier whose limits (request caps, rate limits) apply")
	requestTimeout := fs.Duration("request-timeout", api.DefaultRequestTimeout, "deadline of every tool call")
	if err := fs.Parse(args); err != nil {
		return err
	}
	tier, err := tiers.Parse(*tierName)
	if err != nil {
		return err
	}
	logger, err := kf.logger()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	kn, err := kf.start(ctx, logger, nil)
	if err != nil {
		return err
	}
	defer kn.close()
	local := &tenants.Key{ID: "stdio", Tenant: "local", Tier: tier, Workspace: kn.root, CreatedAt: time.Now()}
	limiter := ratelimit.New(nil, ratelimit.Options{OnDecision: kn.metrics.LimiterDecision, Logger: logger})
	srv := api.NewMCPServer(api.Options{Service: kn.svc, Limiter: limiter, Logger: logger, RequestTimeout: *requestTimeout}, local)
	logger.Info("serving MCP on stdio", "workspace", kn.root, "tier", tier)
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		select {
		case err := <-kn.pluginFailure():
			cancel(err)
		case <-runCtx.Done():
		}
	}()
	err = srv.Run(runCtx, &mcp.StdioTransport{})
	if ctx.Err() != nil {
		return nil // interrupted: the agent went away
	}
	if cause := context.Cause(runCtx); runCtx.Err() != nil && cause != nil {
		return cause
	}
	return err
}
