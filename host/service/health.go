package service

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/pyws/pyws/host/metrics"
	"github.com/pyws/pyws/host/toolspec"
)

// Health statuses.
const (
	Healthy   = "healthy"
	Degraded  = "degraded"
	Unhealthy = "unhealthy"
)

// HealthReport is health_check's result. Problems, beyond the spec, says
// in words why the status is not healthy.
type HealthReport struct {
	Status    string           `json:"status"`
	Server    ServerInfo       `json:"server"`
	Workspace *WorkspaceInfo   `json:"workspace,omitempty"`
	Metrics   *metrics.Summary `json:"metrics,omitempty"`
	Problems  []string         `json:"problems,omitempty"`
}

type ServerInfo struct {
	Version       string  `json:"version"`
	Uptime        float64 `json:"uptime"`
	EngineVersion string  `json:"engineVersion"`
}

type WorkspaceInfo struct {
	Loaded           bool    `json:"loaded"`
	FileCount        int     `json:"fileCount"`
	PythonVersion    string  `json:"pythonVersion"`
	IndexingProgress float64 `json:"indexingProgress"`
}

// runHealth: unhealthy when requests cannot be answered at all (the
// workspace is gone, or no plugin worker can run); degraded when some are
// refused (workspace still loading, workers missing, tools without a
// plugin, maintenance); healthy otherwise.
func runHealth(ctx context.Context, s *Session, a toolspec.Args) (any, error) {
	svc := s.svc
	r := HealthReport{Status: Healthy, Server: ServerInfo{
		Version:       svc.cfg.Version,
		Uptime:        float64(time.Since(svc.started).Milliseconds()) / 1000,
		EngineVersion: svc.cfg.EngineVersion,
	}}
	var unhealthy, degraded []string
	if s.ws == nil {
		unhealthy = append(unhealthy, "workspace directory not found")
	} else if !s.ws.loaded.Load() {
		degraded = append(degraded, "workspace still loading")
	}
	if svc.maintenance.Load() {
		degraded = append(degraded, "maintenance mode")
	}
	if p := svc.cfg.Plugins; p != nil {
		h := p.Health()
		switch {
		case h.Starting:
			degraded = append(degraded, "plugin workers starting")
		case h.WorkersAlive == 0 && h.WorkersWanted > 0:
			unhealthy = append(unhealthy, "no plugin worker is running: "+h.Problem)
		case h.Problem != "":
			degraded = append(degraded, h.Problem)
		}
		degraded = append(degraded, unservedCapabilities(svc.table, p.Tools())...)
	}
	switch {
	case len(unhealthy) > 0:
		r.Status = Unhealthy
	case len(degraded) > 0:
		r.Status = Degraded
	}
	r.Problems = append(unhealthy, degraded...)
	if a.Bool("includeWorkspace") {
		wi := &WorkspaceInfo{PythonVersion: defaultPython}
		if s.ws != nil {
			wi.PythonVersion = s.ws.pythonRelease(svc.cfg.HealthPython)
			wi.Loaded = s.ws.loaded.Load()
			wi.FileCount = int(s.ws.files.Load())
			wi.IndexingProgress = float64(s.ws.progress())
		}
		r.Workspace = wi
	}
	if a.Bool("includeMetrics") {
		m := svc.cfg.Metrics.Summarize()
		r.Metrics = &m
	}
	return r, nil
}

// unservedCapabilities says, for each capability of the table's health
// rows that no plugin serves, which tools are unavailable.
func unservedCapabilities(t *Table, served []string) []string {
	var problems []string
	for _, c := range t.HealthCapabilities() {
		switch {
		case slices.Contains(served, c.Name):
		case len(c.Tools) == 1 && c.Tools[0] == c.Name:
			problems = append(problems, "no plugin serves "+c.Name)
		default:
			problems = append(problems, "no plugin serves "+c.Name+": "+unavailable(c.Tools))
		}
	}
	return problems
}

// unavailable writes "a, b and c are unavailable".
func unavailable(tools []string) string {
	if len(tools) == 1 {
		return tools[0] + " is unavailable"
	}
	return strings.Join(tools[:len(tools)-1], ", ") + " and " + tools[len(tools)-1] + " are unavailable"
}
