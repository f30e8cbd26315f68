package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pyws/pyws/api"
	"github.com/pyws/pyws/host/edits"
	"github.com/pyws/pyws/host/service"
	"github.com/pyws/pyws/host/tenants"
	"github.com/pyws/pyws/host/tiers"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

type noPlugins struct{}

func (noPlugins) Call(context.Context, string, *abi.Request) (json.RawMessage, error) {
	return nil, errors.New("no plugins in this test")
}
func (noPlugins) Tools() []string { return nil }
func (noPlugins) Health() service.PluginHealth {
	return service.PluginHealth{WorkersWanted: 1, WorkersAlive: 1}
}

// TestCallCommand runs `pyws call` against a server on a real listener:
// a result on stdout, an error envelope on stderr with callExit (exit 1),
// --arg values typed as JSON, a resource read, and --list from the
// OpenAPI document.
func TestCallCommand(t *testing.T) {
	const key = "pyws_call_test_key_0123456789"
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "a.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	engine, err := edits.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	svc := service.New(service.Config{DefaultWorkspace: ws, Plugins: noPlugins{}, Edits: engine})
	t.Cleanup(svc.Close)
	keys, _ := tenants.Open("")
	keys.AddInMemory(key, tenants.Key{ID: "k", Tier: tiers.Pro, Workspace: ws})
	app := api.New(api.Options{Service: svc, Keys: keys, OpenAPI: api.OpenAPIDocument(svc.Table())})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go app.Listener(ln)
	t.Cleanup(func() { app.ShutdownWithTimeout(time.Second) })
	t.Setenv("PYWS_URL", "http://"+ln.Addr().String())
	t.Setenv("PYWS_KEY", key)

	tests := []struct {
		name     string
		args     []string
		exit     bool
		stdout   []string
		stderr   []string
		noStdout bool
	}{
		{name: "result", args: []string{"health_check", "--arg", "includeWorkspace=false"}, stdout: []string{`"status"`}},
		{name: "typed arguments from --json and --arg", args: []string{"apply_workspace_edit", "--json", `{"edit": {"changes": {}}}`, "--arg", "label=noop"}, stdout: []string{`"applied": true`}},
		{name: "error envelope on stderr", args: []string{"get_everything"}, exit: true, stderr: []string{`"code": "INVALID_PARAMETER"`, `unknown tool \"get_everything\"`}, noStdout: true},
		{name: "argument of the wrong type", args: []string{"health_check", "--arg", "includeWorkspace=3"}, exit: true, stderr: []string{`"INVALID_PARAMETER"`, `includeWorkspace`}, noStdout: true},
		{name: "resource", args: []string{"svc://file/a.py"}, stdout: []string{`"content": "x = 1\n"`}},
		{name: "list", args: []string{"--list"}, stdout: []string{"rename_symbol\n", "--arg newName=<string, required>", "--arg line=<integer>  0-indexed line", "--arg symbol=<string>  dotted name"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := callCommand(tt.args, &stdout, &stderr)
			if exited := errors.As(err, new(callExit)); exited != tt.exit || (err != nil && !exited) {
				t.Fatalf("err %v, want exit %v; stderr %s", err, tt.exit, stderr.String())
			}
			for _, want := range tt.stdout {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
				}
			}
			for _, want := range tt.stderr {
				if !strings.Contains(stderr.String(), want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
				}
			}
			if tt.noStdout && stdout.Len() > 0 {
				t.Errorf("an error printed on stdout: %s", stdout.String())
			}
		})
	}
}
