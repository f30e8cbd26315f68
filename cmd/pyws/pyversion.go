package main

import (
	"context"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/pyws/pyws/host/interpreter"
)

// targetPython is the version health_check reports when no interpreter
// answers: the one pyws's analyzers target.
const targetPython = "3.12"

// pythonVersionTimeout bounds one asking: the interpreter probe's, which
// a loaded machine needs.
const pythonVersionTimeout = interpreter.DefaultTimeout

// pythonVersion is the interpreter's version as health_check reports it,
// asked in the background. An answer is kept for the process; a failure
// is not: a start on a loaded machine, where Python took more than the
// old 3 s to answer, reported 3.12 for the life of the process while the
// index used the interpreter's 3.11 (and two servers of one workspace
// disagreed).
type pythonVersion struct {
	interpreter string
	timeout     time.Duration

	mu      sync.Mutex
	got     string
	running bool
}

func newPythonVersion(interpreter string, timeout time.Duration) *pythonVersion {
	return &pythonVersion{interpreter: interpreter, timeout: timeout}
}

// get returns the version once known, else targetPython while it is
// asked (health_check must not wait for a process).
func (p *pythonVersion) get() string {
	p.mu.Lock()
	if p.got != "" {
		defer p.mu.Unlock()
		return p.got
	}
	if p.running {
		p.mu.Unlock()
		return targetPython
	}
	p.running = true
	p.mu.Unlock()
	v, ok := askPythonVersion(p.interpreter, p.timeout)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.running = false
	if ok {
		p.got = v
		return v
	}
	return targetPython
}

// askPythonVersion runs the interpreter (python3 on PATH when "") for
// platform.python_version(); ok false when none answers in time.
func askPythonVersion(interpreter string, timeout time.Duration) (string, bool) {
	if interpreter == "" {
		p, err := exec.LookPath("python3")
		if err != nil {
			return "", false
		}
		interpreter = p
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, interpreter, "-c", "import platform; print(platform.python_version())").Output()
	v := strings.TrimSpace(string(out))
	if err != nil || v == "" {
		return "", false
	}
	return v, true
}
