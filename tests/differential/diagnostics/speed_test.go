package diagdiff

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/pyws/pyws/plugin-sdk/textpos"
	"github.com/pyws/pyws/plugin-sdk/tree"
	"github.com/pyws/pyws/plugins/diagnostics/rules"
	"github.com/pyws/pyws/wasm/parser"
)

// TestDjangoThroughput times, in one run over every file of Django
// (PYWS_DIFF=1; PYWS_DIFF_SPEED_DIR picks another tree):
//
//   - pyws analysis: the plugin's rules, natively, trees already parsed;
//
//   - pyws parse + analysis: the kernel's wasm tree-sitter parser too;
//
//   - pyflakes: /usr/bin/python3 -m pyflakes over the same files, one process.
//
//     PYWS_DIFF=1 go test ./tests/differential/diagnostics -run TestDjangoThroughput -v
//
// It fails when the analysis is not faster than pyflakes.
func TestDjangoThroughput(t *testing.T) {
	if os.Getenv("PYWS_DIFF") == "" {
		t.Skip("set PYWS_DIFF=1")
	}
	dir := filepath.Join(distPackages, "django")
	if d := os.Getenv("PYWS_DIFF_SPEED_DIR"); d != "" {
		dir = d
	}
	var files []string
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && strings.HasSuffix(p, ".py") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		t.Skipf("no files under %s", dir)
	}
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	mod, err := parser.Compile(ctx, rt)
	if err != nil {
		t.Fatal(err)
	}
	p, err := mod.New(ctx)
	if err != nil {
		t.Fatal(err)
	}
	type parsed struct {
		rel string
		src []byte
		t   *tree.Tree
	}
	var all []parsed
	var bytes int
	startParse := time.Now()
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		blob, err := p.Parse(ctx, src, 0)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		tr, err := tree.Decode(blob, src)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(filepath.Dir(dir), f)
		all = append(all, parsed{filepath.ToSlash(rel), src, tr})
		bytes += len(src)
	}
	parseTime := time.Since(startParse)
	cfg, _ := rules.ParseConfig(map[string]any{"python-version": "3.11"})
	startRules := time.Now()
	diags := 0
	for _, f := range all {
		mod := strings.TrimSuffix(strings.TrimSuffix(f.rel, ".py"), "/__init__")
		env := rules.Env{Path: f.rel, ModuleName: strings.ReplaceAll(mod, "/", "."), IsPackageInit: strings.HasSuffix(f.rel, "__init__.py")}
		diags += len(rules.Run(f.t, textpos.New(f.src), cfg, env))
	}
	rulesTime := time.Since(startRules)
	startPF := time.Now()
	cmd := exec.Command(systemPython, append([]string{"-m", "pyflakes"}, files...)...)
	cmd.Run()
	pfTime := time.Since(startPF)
	n := float64(len(all))
	t.Logf("%d files, %d KB, %d diagnostics", len(all), bytes/1024, diags)
	t.Logf("pyws analysis (native, parsed trees): %v = %.0f files/s", rulesTime.Round(time.Millisecond), n/rulesTime.Seconds())
	t.Logf("pyws wasm parse + analysis:           %v = %.0f files/s", (parseTime + rulesTime).Round(time.Millisecond), n/(parseTime+rulesTime).Seconds())
	t.Logf("pyflakes (one process, same files):   %v = %.0f files/s", pfTime.Round(time.Millisecond), n/pfTime.Seconds())
	t.Logf("analysis is %.1fx pyflakes; with the parse %.1fx", pfTime.Seconds()/rulesTime.Seconds(), pfTime.Seconds()/(parseTime+rulesTime).Seconds())
	if rulesTime >= pfTime {
		t.Errorf("analysis (%v) is not faster than pyflakes (%v)", rulesTime, pfTime)
	}
}
