// Package knowndiff checks a corpus comparison against a recorded list of
// the known differences: the files on which an analyzer's answer is not
// the reference tool's (isort, black), one line each. A difference that
// is not listed fails the test, and so does a listed one that is gone, so
// the list says exactly where the analyzer stands and a fix updates it.
//
// It imports only the standard library: tests of every layer may use it.
package knowndiff

import (
	"bufio"
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"
)

// List is a recorded list of known differences.
type List struct {
	// Path is the file holding the list: Header as "# " comment lines,
	// then one difference per line, sorted.
	Path string
	// Header says what was compared, with which tool versions.
	Header string
	// Record says how to re-record the list; failures show it.
	Record string
}

// Check compares the differences found (each line with the detail shown
// when it is new, such as the first differing line) with the recorded
// list, or records them when update is set.
func (l List) Check(tb testing.TB, found map[string]string, update bool) {
	tb.Helper()
	lines := make([]string, 0, len(found))
	for line := range found {
		if strings.ContainsAny(line, "\n") || strings.HasPrefix(line, "#") || line == "" {
			tb.Fatalf("knowndiff: %q cannot be a line of the list", line)
		}
		lines = append(lines, line)
	}
	slices.Sort(lines)
	if update {
		var b bytes.Buffer
		for _, h := range strings.Split(strings.TrimSpace(l.Header), "\n") {
			b.WriteString(strings.TrimRight("# "+h, " ") + "\n")
		}
		for _, line := range lines {
			b.WriteString(line + "\n")
		}
		if err := os.WriteFile(l.Path, b.Bytes(), 0o644); err != nil {
			tb.Fatal(err)
		}
		return
	}
	recorded, err := l.read()
	if err != nil {
		tb.Fatalf("%v (record it: %s)", err, l.Record)
	}
	for _, line := range lines {
		if !recorded[line] {
			tb.Errorf("%s: new difference, not in the list: %s\n%s", l.Path, line, found[line])
		}
	}
	var gone []string
	for line := range recorded {
		if _, ok := found[line]; !ok {
			gone = append(gone, line)
		}
	}
	slices.Sort(gone)
	for _, line := range gone {
		tb.Errorf("%s: listed, but no longer found (fixed? re-record: %s): %s", l.Path, l.Record, line)
	}
}

func (l List) read() (map[string]bool, error) {
	data, err := os.ReadFile(l.Path)
	if err != nil {
		return nil, err
	}
	recorded := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			recorded[line] = true
		}
	}
	return recorded, sc.Err()
}
