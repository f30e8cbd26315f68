package plugins

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// Pack builds the Go plugin whose package main is srcDir (which also holds
// a manifest.json template without sha256) and writes
// outDir/<name>/plugin.wasm and outDir/<name>/manifest.json with the
// module's SHA-256. It runs the go command found in PATH (or GOROOT).
func Pack(ctx context.Context, srcDir, outDir string) (*Manifest, error) {
	// go build runs inside srcDir, so a relative -o would land there.
	outDir, err := filepath.Abs(outDir)
	if err != nil {
		return nil, err
	}
	tmpl, err := os.ReadFile(filepath.Join(srcDir, ManifestFile))
	if err != nil {
		return nil, fmt.Errorf("pack %s: %w", srcDir, err)
	}
	m, err := parseManifest(tmpl)
	if err != nil {
		return nil, fmt.Errorf("pack %s: manifest template: %w", srcDir, err)
	}
	dst := filepath.Join(outDir, m.Name)
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(dst, ".plugin-*.wasm")
	if err != nil {
		return nil, err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	cmd := exec.CommandContext(ctx, goTool(), "build", "-buildmode=c-shared", "-trimpath", "-o", tmp.Name(), ".")
	cmd.Dir = srcDir
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("pack %s: go build: %v\n%s", srcDir, err, stderr.Bytes())
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dst, ModuleFile)); err != nil {
		return nil, err
	}
	return m, seal(dst, m)
}

// Seal writes the SHA-256 of dir/plugin.wasm into dir/manifest.json and
// returns the manifest. Use it for plugins built by other toolchains.
func Seal(dir string) (*Manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return nil, err
	}
	m, err := parseManifest(b)
	if err != nil {
		return nil, fmt.Errorf("seal %s: %w", dir, err)
	}
	return m, seal(dir, m)
}

func seal(dir string, m *Manifest) error {
	wasm, err := os.ReadFile(filepath.Join(dir, ModuleFile))
	if err != nil {
		return err
	}
	if !bytes.HasPrefix(wasm, []byte("\x00asm")) {
		return fmt.Errorf("seal %s: %s is not a wasm module (%d bytes)", dir, ModuleFile, len(wasm))
	}
	m.SHA256 = sha256Hex(wasm)
	if m.Needs == nil {
		m.Needs = []string{}
	}
	out, _ := json.MarshalIndent(m, "", "  ")
	return os.WriteFile(filepath.Join(dir, ManifestFile), append(out, '\n'), 0o644)
}

func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}
