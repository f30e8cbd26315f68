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

	"github.com/pyws/pyws/host/tiers"
)

// generatedSections are the parts of docs/api.md written from the code:
// each lies between "<!-- generated: NAME -->" and "<!-- end generated -->".
var generatedSections = map[string]func() string{
	"statuses":    statusTableMarkdown,
	"http-limits": httpLimitsMarkdown,
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

// TestAPIDocGenerated keeps docs/api.md's generated tables equal to the
// code; go test ./api -run TestAPIDocGenerated -update rewrites them.
func TestAPIDocGenerated(t *testing.T) {
	path := filepath.Join("..", "docs", "api.md")
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := doc
	for name, gen := range generatedSections {
		re := regexp.MustCompile(`(?s)(<!-- generated: ` + name + ` -->\n).*?(<!-- end generated -->)`)
		if !re.Match(got) {
			t.Fatalf("docs/api.md lacks the section <!-- generated: %s --> ... <!-- end generated -->", name)
		}
		body := gen()
		got = re.ReplaceAllFunc(got, func(m []byte) []byte {
			sub := re.FindSubmatch(m)
			return append(append(append([]byte{}, sub[1]...), body...), sub[2]...)
		})
	}
	if bytes.Equal(got, doc) {
		return
	}
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatal("docs/api.md is stale: run go test ./api -run TestAPIDocGenerated -update")
}
