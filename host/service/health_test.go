package service

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pyws/pyws/host/tenants"
	"github.com/pyws/pyws/host/tiers"
	"github.com/pyws/pyws/host/toolspec"
)

// TestHealthReportsTheWorkspaceInterpreter: health_check's pythonVersion
// is the release of the interpreter the workspace's diagnostics and index
// follow, from the same asking: one Python process answers all of them.
// Before it answers, the default target.
func TestHealthReportsTheWorkspaceInterpreter(t *testing.T) {
	root := t.TempDir()
	calls := filepath.Join(t.TempDir(), "calls")
	// A fake interpreter that counts its runs.
	python := "#!/bin/sh\necho x >> " + calls + "\necho '{\"version\": \"3.10\", \"release\": \"3.10.4\", \"platform\": \"linux\", \"installed\": []}'\n"
	for name, body := range map[string]string{
		"python":         python,
		"pyproject.toml": "[tool.pyws]\npython = \"python\"\n",
		"a.py":           "x = 1\n",
	} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	runs := func() int {
		b, _ := os.ReadFile(calls)
		return strings.Count(string(b), "x")
	}
	svc := New(Config{DefaultWorkspace: root, Plugins: bulkyDiagnostics{}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	defer svc.Close()
	op, _ := svc.Table().Tool("health_check")
	health := func() string {
		t.Helper()
		res, err := svc.Run(context.Background(), &tenants.Key{ID: "k", Tier: tiers.Pro}, op, toolspec.Args{"includeWorkspace": true})
		if err != nil {
			t.Fatal(err)
		}
		return res.(HealthReport).Workspace.PythonVersion
	}
	if v := health(); v != "3.10.4" && v != defaultPython {
		t.Fatalf("pythonVersion %q before the interpreter answered, want %q", v, defaultPython)
	}
	waitUntil(t, func() bool { return health() == "3.10.4" })
	st, err := svc.workspaces.Get(root)
	if err != nil {
		t.Fatal(err)
	}
	if info := st.diag.interpreter(root, st.diag.config.Config()); info == nil || info.Version != "3.10" {
		t.Fatalf("diagnostics' interpreter %+v", info)
	}
	if n := runs(); n != 1 {
		t.Errorf("the interpreter ran %d times, want once for health and diagnostics", n)
	}
}
