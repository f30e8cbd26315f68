// Command pyws is the one binary of the service: `serve` runs the HTTP API
// (and MCP at /mcp), `mcp` serves one workspace over MCP on stdio, `call`
// calls a tool of a running server, `keys` manages API keys, `plugin pack` builds a Go analyzer into a
// loadable plugin directory. A hidden subcommand runs a plugin worker
// process; the server starts those itself.
package main

import (
	"errors"
	"fmt"
	"os"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

const usage = `pyws: Python workspace code intelligence over HTTP and MCP

usage:
  pyws serve --workspace DIR [--addr HOST:PORT] [--keys FILE] [--plugins DIR]... [--stubs DIR] [--state DIR] [--dev-key]
  pyws mcp --workspace DIR [--tier TIER] [--plugins DIR]... [--stubs DIR] [--state DIR]
  pyws call TOOL [--arg NAME=VALUE]... [--json '{...}'] [--url URL]   (key from $PYWS_KEY)
  pyws call --list [--url URL]
  pyws keys add --keys FILE --tier TIER [--workspace DIR] [--tenant NAME]
  pyws keys list --keys FILE
  pyws keys revoke --keys FILE ID
  pyws plugin pack SRC_DIR PLUGINS_DIR
  pyws prepare [--out DIR] [--python 3.11,3.12]   (make build: compiled plugins, typeshed summaries)
  pyws version

Run 'pyws <command> -h' for the flags of a command.
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	var err error
	switch cmd, args := os.Args[1], os.Args[2:]; cmd {
	case workerCommand:
		runWorker()
		return
	case "serve":
		err = serve(args)
	case "mcp":
		err = mcpCommand(args)
	case "call":
		err = callCommand(args, os.Stdout, os.Stderr)
		if errors.As(err, new(callExit)) {
			os.Exit(1)
		}
	case "keys":
		err = keysCommand(args, os.Stdout)
	case "plugin":
		err = pluginCommand(args)
	case "prepare":
		err = prepareCommand(args)
	case "version", "--version":
		fmt.Println("pyws", version)
	case "help", "-h", "--help":
		fmt.Print(usage)
	default:
		fmt.Fprintf(os.Stderr, "pyws: unknown command %q\n\n%s", cmd, usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pyws:", err)
		os.Exit(1)
	}
}
