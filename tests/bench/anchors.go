package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// anchors are the other tools a user would pick, each found on this
// machine or skipped (the harness installs nothing).
type anchors struct {
	black   string // black executable ("" missing)
	python  string // interpreter with pyflakes ("" missing)
	node    string // node executable ("" missing)
	ruffPkg string // directory of @astral-sh/ruff-wasm-nodejs ("" missing)
	why     map[string]string
}

// findAnchors looks each anchor up (env overrides: PYWS_BENCH_BLACK,
// PYWS_BENCH_PYFLAKES_PYTHON, PYWS_BENCH_NODE, PYWS_BENCH_RUFF_WASM).
func findAnchors(repo string) anchors {
	a := anchors{why: map[string]string{}}
	if p, err := exec.LookPath(env("PYWS_BENCH_BLACK", "black")); err == nil {
		a.black = p
	} else {
		a.why["black"] = "black not installed (apt-get install black)"
	}
	py := env("PYWS_BENCH_PYFLAKES_PYTHON", "/usr/bin/python3")
	if exec.Command(py, "-m", "pyflakes", "--version").Run() == nil {
		a.python = py
	} else {
		a.why["pyflakes"] = "pyflakes not installed for " + py + " (apt-get install python3-pyflakes)"
	}
	if p, err := exec.LookPath(env("PYWS_BENCH_NODE", "node")); err == nil {
		a.node = p
	}
	pkg := env("PYWS_BENCH_RUFF_WASM", filepath.Join(repo, "tests", "bench", "anchors", "node_modules", "@astral-sh", "ruff-wasm-nodejs"))
	if _, err := os.Stat(filepath.Join(pkg, "package.json")); err == nil && a.node != "" {
		a.ruffPkg = pkg
	} else {
		a.why["ruff"] = "Ruff wasm not installed (npm i --prefix tests/bench/anchors @astral-sh/ruff-wasm-nodejs)"
	}
	return a
}

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// timeCommand runs cmd and returns its wall time, process start
// included, with its CPU time (its children's included) as the note.
func timeCommand(cmd *exec.Cmd, okExit ...int) (figure, []byte, error) {
	start := time.Now()
	out, err := cmd.CombinedOutput()
	elapsed := time.Since(start)
	if ee, isExit := err.(*exec.ExitError); isExit {
		for _, code := range okExit {
			if ee.ExitCode() == code {
				err = nil
			}
		}
	}
	if err != nil {
		return figure{}, out, fmt.Errorf("%s: %v\n%s", strings.Join(cmd.Args[:min(3, len(cmd.Args))], " "), err, tail(out))
	}
	f := timed(elapsed)
	f.note = cpuNote(cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime())
	return f, out, nil
}

// cpuNote says how much CPU time a figure took: on a busy machine the
// wall time also counts the waits for a core.
func cpuNote(d time.Duration) string { return fmt.Sprintf("cpu %.2f s", d.Seconds()) }

func tail(b []byte) string {
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}

// blackFormat formats copies of files with Black in one worker process
// (its cache in a fresh directory, so nothing is skipped).
func (a anchors) blackFormat(files []string, scratch string) figure {
	if a.black == "" {
		return missing(a.why["black"])
	}
	copies, err := copyFlat(files, filepath.Join(scratch, "black"))
	if err != nil {
		return missing(err.Error())
	}
	cmd := exec.Command(a.black, append([]string{"-q", "--workers", "1"}, copies...)...)
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(scratch, "black-cache"), "BLACK_CACHE_DIR="+filepath.Join(scratch, "black-cache"))
	f, _, err := timeCommand(cmd, 123) // 123: a file Black cannot parse
	if err != nil {
		return missing(err.Error())
	}
	return f
}

// pyflakes checks files in one process (exit 1: it found something).
func (a anchors) pyflakes(files []string) figure {
	if a.python == "" {
		return missing(a.why["pyflakes"])
	}
	f, _, err := timeCommand(exec.Command(a.python, append([]string{"-m", "pyflakes"}, files...)...), 1)
	if err != nil {
		return missing(err.Error())
	}
	return f
}

// ruff runs Ruff's wasm build in node over files: mode "format" or
// "check" (its default rules), one thread; the time is ruff.js's own,
// from loading the module to the last file (node's start, ~50 ms, and
// its exit left out).
func (a anchors) ruff(repo, mode string, files []string, scratch string) figure {
	if a.ruffPkg == "" {
		return missing(a.why["ruff"])
	}
	list := filepath.Join(scratch, "ruff-files.txt")
	if err := os.WriteFile(list, []byte(strings.Join(files, "\n")), 0o644); err != nil {
		return missing(err.Error())
	}
	_, out, err := timeCommand(exec.Command(a.node, filepath.Join(repo, "tests", "bench", "ruff.js"), a.ruffPkg, mode, list))
	if err != nil {
		return missing(err.Error())
	}
	var res struct {
		Done, Failed int
		MS, CPUMS    float64
	}
	if err := json.Unmarshal(out, &res); err != nil || res.MS <= 0 {
		return missing(fmt.Sprintf("ruff.js printed %q", tail(out)))
	}
	f := timed(time.Duration(res.MS * float64(time.Millisecond)))
	f.note = cpuNote(time.Duration(res.CPUMS * float64(time.Millisecond)))
	if res.Failed > 0 {
		f.note += fmt.Sprintf(", %d files failed", res.Failed)
	}
	return f
}

// copyFlat copies files into dir as 0000_name.py, ... (Black rewrites
// them).
func copyFlat(files []string, dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var out []string
	for i, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		dst := filepath.Join(dir, fmt.Sprintf("%04d_%s", i, filepath.Base(f)))
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			return nil, err
		}
		out = append(out, dst)
	}
	return out, nil
}
