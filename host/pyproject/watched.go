package pyproject

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/pyws/pyws/host/workspace"
)

// Watched is one workspace's pyproject.toml, parsed once and again only
// when its size or modification time changes: diagnostics read it on
// every call.
type Watched struct {
	ws  *workspace.Workspace
	log *slog.Logger

	mu    sync.Mutex
	stamp string
	cfg   *Config
}

// Watch returns the Watched pyproject.toml of ws, read through it.
func Watch(ws *workspace.Workspace, log *slog.Logger) *Watched {
	if log == nil {
		log = slog.Default()
	}
	return &Watched{ws: ws, log: log}
}

// Config returns the parsed file. A file that is not valid TOML is logged
// and read as empty: diagnostics go on with their defaults (format_document,
// which must not format with the wrong settings, loads it itself and
// refuses).
func (w *Watched) Config() *Config {
	stamp := ""
	if fi, err := os.Stat(filepath.Join(w.ws.Root(), FileName)); err == nil {
		stamp = fmt.Sprint(fi.ModTime().UnixNano(), "/", fi.Size())
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cfg != nil && stamp == w.stamp {
		return w.cfg
	}
	cfg, err := load(w.ws)
	if err != nil {
		w.log.Warn("pyproject.toml ignored by get_diagnostics", "err", err)
		cfg = &Config{Raw: map[string]any{}}
	}
	w.cfg, w.stamp = cfg, stamp
	return cfg
}
