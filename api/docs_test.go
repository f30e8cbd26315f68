package api

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pyws/pyws/host/service"
	"github.com/pyws/pyws/host/tiers"
)

// generatedDocs are the parts of the docs written from the code: each lies
// between "<!-- generated: NAME -->" and "<!-- end generated -->" in its
// file. The operation table's parts use the table that is served.
var generatedDocs = []struct {
	path     string
	sections map[string]func() string
}{
	{filepath.Join("..", "docs", "api.md"), map[string]func() string{
		"statuses":    statusTableMarkdown,
		"http-limits": httpLimitsMarkdown,
		"operations":  func() string { return OperationsReference(service.NewTable(service.Operations())) },
	}},
	{filepath.Join("..", "README.md"), map[string]func() string{
		"operations": func() string { return OperationsSummary(service.NewTable(service.Operations())) },
	}},
}

func statusTableMarkdown() string {
	var b strings.Builder
	b.WriteString("| code | status |\n|---|---|\n")
	for _, s := range statuses {
		fmt.Fprintf(&b, "| `%s` | %d |\n", s.Code, s.Status)
	}
	return b.String()
}

func httpLimitsMarkdown() string {
	var b strings.Builder
	b.WriteString("| limit | default | `pyws serve` flag |\n|---|---|---|\n")
	row := func(what, value, flag string) { fmt.Fprintf(&b, "| %s | %s | %s |\n", what, value, flag) }
	row("request line and headers", size(DefaultMaxHeaderBytes), "")
	row("receiving the request line and headers", duration(DefaultHeaderTimeout), "`--header-timeout`")
	row("receiving the body, from the end of the headers", duration(DefaultBodyTimeout), "`--body-timeout`")
	row("deadline of a request, from its arrival", duration(DefaultRequestTimeout), "`--request-timeout`")
	row("idle kept-alive connection", duration(DefaultIdleTimeout), "")
	row("body, any key", size(DefaultBodyLimit), "`--max-body`")
	for _, t := range tiers.All {
		c := tiers.For(t).MaxRequestBytes
		row("body, "+string(t)+" tier", size(int(min(c, DefaultBodyLimit))), "`--max-body` caps it")
	}
	return b.String()
}

func size(n int) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d KiB", n>>10)
}

func duration(d time.Duration) string { return d.String() }

// TestDocsGenerated keeps the generated sections of docs/api.md and
// README.md equal to the code; go test ./api -run TestDocsGenerated
// -update rewrites them.
func TestDocsGenerated(t *testing.T) {
	for _, d := range generatedDocs {
		t.Run(filepath.Base(d.path), func(t *testing.T) {
			doc, err := os.ReadFile(d.path)
			if err != nil {
				t.Fatal(err)
			}
			got, err := fillSections(doc, d.sections)
			if err != nil {
				t.Fatalf("%s: %v", d.path, err)
			}
			checkGenerated(t, d.path, got, "TestDocsGenerated")
		})
	}
}

// fillSections replaces the body of each generated section of doc.
func fillSections(doc []byte, sections map[string]func() string) ([]byte, error) {
	got := doc
	for name, gen := range sections {
		re := regexp.MustCompile(`(?s)(<!-- generated: ` + name + ` -->\n).*?(<!-- end generated -->)`)
		if !re.Match(got) {
			return nil, fmt.Errorf("no section <!-- generated: %s --> ... <!-- end generated -->", name)
		}
		body := gen()
		got = re.ReplaceAllFunc(got, func(m []byte) []byte {
			sub := re.FindSubmatch(m)
			return append(append(append([]byte{}, sub[1]...), body...), sub[2]...)
		})
	}
	return got, nil
}

// checkGenerated fails when the file at path is not want, or writes want
// there under -update.
func checkGenerated(t *testing.T, path string, want []byte, test string) {
	t.Helper()
	have, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(have, want) {
		return
	}
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("%s is stale: run go test ./api -run %s -update", path, test)
}
