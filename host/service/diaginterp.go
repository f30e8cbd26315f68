package service

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pyws/pyws/host/pyproject"
	"github.com/pyws/pyws/host/workspace"
)

// The interpreter whose installed packages import-not-found trusts:
// [tool.pyws] python (a path, relative to the workspace root allowed), else
// the workspace's .venv/bin/python or venv/bin/python, else python3 on the
// server's PATH. It is asked once, then again at most every interpTTL
// (in the background; the previous answer serves meanwhile), for its
// version and the top-level modules importable from its sys.path
// (directories, .py and extension modules, zip entries through pkgutil, and
// importlib.metadata's top-level names, which covers editable installs).
// The standard library's directories are included: they hold importable
// packages that sys.stdlib_module_names leaves out, such as Debian's
// "test".

const interpTTL = 5 * time.Minute

// interpInfo is what an interpreter told us.
type interpInfo struct {
	Version   string   `json:"version"` // "3.11"
	Installed []string `json:"installed"`
}

const interpScript = `
import sys, os, json, pkgutil
paths = [p for p in sys.path if p]
names = set()
for p in paths:
    if not os.path.isdir(p):
        continue
    for fn in os.listdir(p):
        if fn == "__pycache__" or fn.endswith((".dist-info", ".egg-info", ".pth")):
            continue
        full = os.path.join(p, fn)
        if os.path.isdir(full):
            if fn.endswith("-stubs") and fn[:-6].isidentifier():
                names.add(fn[:-6])  # stub-only packages (types-*) serve type checking
            elif fn.isidentifier():
                names.add(fn)
        else:
            base = fn.split(".")[0]
            if base.isidentifier() and fn.endswith((".py", ".pyc", ".so", ".pyd", ".pyi")):
                names.add(base)
for m in pkgutil.iter_modules(paths):
    names.add(m.name)
try:
    from importlib.metadata import packages_distributions
    names.update(k for k in packages_distributions() if k.isidentifier())
except Exception:
    pass
print(json.dumps({"version": "%d.%d" % sys.version_info[:2], "installed": sorted(names)}))
`

type interpEntry struct {
	mu      sync.Mutex
	info    *interpInfo
	asked   time.Time
	running bool
}

var interps sync.Map // interpreter path -> *interpEntry

// interpreterFor returns the workspace interpreter's answer, nil when there
// is no interpreter or it cannot answer.
func interpreterFor(root string, tool map[string]any, log *slog.Logger) *interpInfo {
	p := findInterpreter(root, tool)
	if p == "" {
		return nil
	}
	v, _ := interps.LoadOrStore(p, &interpEntry{})
	e := v.(*interpEntry)
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case e.asked.IsZero():
		e.info = askInterpreter(p, log)
		e.asked = time.Now()
	case time.Since(e.asked) > interpTTL && !e.running:
		e.running = true
		go func() {
			info := askInterpreter(p, log)
			e.mu.Lock()
			if info != nil {
				e.info = info
			}
			e.asked, e.running = time.Now(), false
			e.mu.Unlock()
		}()
	}
	return e.info
}

// warmDiagnostics asks the workspace's interpreter in the background when
// the workspace opens, so the first get_diagnostics does not wait for a
// Python process (about 150 ms of a first call's 180).
func warmDiagnostics(ws *workspace.Workspace, log *slog.Logger) {
	tool := diagStateFor(ws).config(log).Table("tool", "pyws")
	if tool == nil {
		tool = map[string]any{}
	}
	interpreterFor(ws.Root(), tool, log)
}

func findInterpreter(root string, tool map[string]any) string {
	if p, ok := tool["python"].(string); ok && p != "" {
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		return p
	}
	for _, venv := range []string{".venv", "venv"} {
		p := filepath.Join(root, venv, "bin", "python")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	p, err := exec.LookPath("python3")
	if err != nil {
		return ""
	}
	return p
}

func askInterpreter(p string, log *slog.Logger) *interpInfo {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, p, "-c", interpScript)
	cmd.Dir = os.TempDir()
	out, err := cmd.Output()
	if err != nil {
		log.Warn("interpreter not usable for import-not-found", "python", p, "err", err)
		return nil
	}
	var info interpInfo
	if err := json.Unmarshal(out, &info); err != nil {
		log.Warn("interpreter answer unreadable", "python", p, "err", err)
		return nil
	}
	return &info
}

// targetVersion picks the Python version diagnostics target: [tool.pyws]
// python-version, else the interpreter's version, else the lower bound of
// [project] requires-python, else "" (the plugin's default, 3.12).
func targetVersion(tool map[string]any, cfg *pyproject.Config, interp *interpInfo) string {
	if v, ok := tool["python-version"].(string); ok && v != "" {
		return v
	}
	if interp != nil && interp.Version != "" {
		return interp.Version
	}
	if proj := cfg.Table("project"); proj != nil {
		if req, ok := proj["requires-python"].(string); ok {
			if v := minRequiredPython(req); v != "" {
				return v
			}
		}
	}
	return ""
}

// minRequiredPython reads the lower bound of a requires-python specifier
// (">=3.9", ">=3.8,<4", "~=3.10", "==3.11.*"): "3.9".
func minRequiredPython(spec string) string {
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		for _, op := range []string{">=", "~=", "==", ">"} {
			if rest, ok := strings.CutPrefix(part, op); ok {
				f := strings.Split(strings.TrimSpace(rest), ".")
				if len(f) >= 2 && f[0] == "3" {
					if minor, err := strconv.Atoi(f[1]); err == nil {
						if op == ">" {
							minor++
						}
						return "3." + strconv.Itoa(minor)
					}
				}
			}
		}
	}
	return ""
}
