package plugins

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"

	"github.com/pyws/pyws/plugin-sdk/abi"
)

// File names inside a plugin directory.
const (
	ManifestFile = "manifest.json"
	ModuleFile   = "plugin.wasm"
)

// Needs a manifest may declare: what the kernel prepares for every call.
const (
	// NeedTree: the kernel parses each file that arrives without a tree
	// and sends the flat tree blob beside its source.
	NeedTree = "tree"
)

var knownNeeds = map[string]bool{NeedTree: true}

// Manifest describes one plugin. It is read, and the module's hash and
// imports checked, before any guest code runs.
type Manifest struct {
	Name     string   `json:"name"`
	Version  string   `json:"version"`
	ABI      string   `json:"abi"`      // "pyws_v1"
	Protocol int      `json:"protocol"` // 1..abi.Protocol
	Tools    []string `json:"tools"`
	Needs    []string `json:"needs"`
	// SHA256 is the lowercase hex digest of plugin.wasm. Pack fills it in;
	// a source template leaves it out.
	SHA256         string `json:"sha256,omitempty"`
	MemoryLimitMiB int    `json:"memoryLimitMiB,omitempty"` // 0: the kernel's default
	TimeoutMs      int    `json:"timeoutMs,omitempty"`      // 0: the kernel's default
}

var (
	nameRE   = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]{0,63}$`)
	toolRE   = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)
	sha256RE = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

// maxMemoryLimitMiB is what a 32-bit wasm memory can address.
const maxMemoryLimitMiB = 4096

// ReadManifest reads and validates dir/manifest.json. Unknown fields are
// errors: a misspelt limit must not silently fall back to a default.
func ReadManifest(dir string) (*Manifest, error) {
	path := filepath.Join(dir, ManifestFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := parseManifest(b)
	if err != nil {
		return nil, fmt.Errorf("plugin manifest %s: %w", path, err)
	}
	if m.SHA256 == "" {
		return nil, fmt.Errorf("plugin manifest %s: no sha256 (build the plugin with `pyws plugin pack`)", path)
	}
	return m, nil
}

func parseManifest(b []byte) (*Manifest, error) {
	var m Manifest
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&m); err != nil {
		return nil, err
	}
	return &m, m.validate()
}

func (m *Manifest) validate() error {
	if !nameRE.MatchString(m.Name) {
		return fmt.Errorf("name %q invalid: want %s", m.Name, nameRE)
	}
	if m.ABI != abi.ModuleName {
		return fmt.Errorf("abi %q unsupported: this pyws hosts %q plugins; rebuild the plugin against a plugin SDK for %s", m.ABI, abi.ModuleName, abi.ModuleName)
	}
	if m.Protocol < 1 || m.Protocol > abi.Protocol {
		return &abi.VersionError{What: "plugin " + m.Name, Got: m.Protocol, Want: abi.Protocol}
	}
	if len(m.Tools) == 0 {
		return fmt.Errorf("tools empty: a plugin serves at least one tool")
	}
	seen := map[string]bool{}
	for _, t := range m.Tools {
		if !toolRE.MatchString(t) {
			return fmt.Errorf("tool %q invalid: want %s", t, toolRE)
		}
		if seen[t] {
			return fmt.Errorf("tool %q listed twice", t)
		}
		seen[t] = true
	}
	for _, n := range m.Needs {
		if !knownNeeds[n] {
			return fmt.Errorf("needs %q unknown: this pyws provides %q", n, NeedTree)
		}
	}
	if m.SHA256 != "" && !sha256RE.MatchString(m.SHA256) {
		return fmt.Errorf("sha256 %q invalid: want 64 lowercase hex digits", m.SHA256)
	}
	if m.MemoryLimitMiB < 0 || m.MemoryLimitMiB > maxMemoryLimitMiB {
		return fmt.Errorf("memoryLimitMiB %d out of range 0..%d", m.MemoryLimitMiB, maxMemoryLimitMiB)
	}
	if m.TimeoutMs < 0 {
		return fmt.Errorf("timeoutMs %d negative", m.TimeoutMs)
	}
	return nil
}

func (m *Manifest) needs(n string) bool { return slices.Contains(m.Needs, n) }
