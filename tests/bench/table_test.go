package main

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestRatio(t *testing.T) {
	for _, tc := range []struct {
		name       string
		pyws, anch figure
		want       string
	}{
		{"faster", timed(time.Second), timed(4 * time.Second), "0.25"},
		{"slower", timed(3 * time.Second), timed(2 * time.Second), "1.50"},
		{"memory", mebibytes(300), mebibytes(900), "0.33"},
		{"anchor missing", timed(time.Second), missing("black not installed"), "-"},
		{"pyws missing", missing("failed"), timed(time.Second), "-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := (row{pyws: tc.pyws, anchor: tc.anch}).ratio(); got != tc.want {
				t.Errorf("ratio = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestFigureString(t *testing.T) {
	for _, tc := range []struct {
		f    figure
		want string
	}{
		{timed(7460 * time.Millisecond), "7.46 s"},
		{timed(1600 * time.Microsecond), "1.6 ms"},
		{mebibytes(693.7), "694 MiB"},
		{figure{dur: 2254 * time.Millisecond, note: "n=200"}, "2.25 s (n=200)"},
		{missing("pyflakes not installed"), "- (pyflakes not installed)"},
	} {
		if got := tc.f.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.f, got, tc.want)
		}
	}
}

func TestWriteTable(t *testing.T) {
	var b strings.Builder
	writeTable(&b, []row{
		{"cold start", timed(2 * time.Second), "pyright", timed(4 * time.Second)},
		{"format", timed(time.Second), "Black", missing("black not installed")},
		{"warm restart", timed(time.Second), "", figure{}},
	})
	want := `| figure | pyws | anchor | ratio pyws/anchor |
|---|---:|---:|---:|
| cold start | 2.00 s | pyright 4.00 s | 0.50 |
| format | 1.00 s | Black - (black not installed) | - |
| warm restart | 1.00 s | - | - |
`
	if b.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestPercentiles(t *testing.T) {
	var d []time.Duration
	for i := 100; i >= 1; i-- {
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	p50, p99 := percentiles(d)
	if p50 != 51*time.Millisecond || p99 != 100*time.Millisecond {
		t.Errorf("p50 %v p99 %v, want 51ms 100ms", p50, p99)
	}
	if p50, p99 := percentiles(nil); p50 != 0 || p99 != 0 {
		t.Errorf("empty: %v %v", p50, p99)
	}
}

func TestSampleFiles(t *testing.T) {
	files := []string{"e.py", "a.py", "d.py", "c.py", "b.py", "f.py"}
	got := sampleFiles(files, 3, 1)
	if len(got) != 3 {
		t.Fatalf("%d files, want 3", len(got))
	}
	for i := 1; i < len(got); i++ {
		if got[i-1] >= got[i] {
			t.Fatalf("not sorted: %v", got)
		}
	}
	// The same seed picks the same files whatever the input order.
	if again := sampleFiles([]string{"a.py", "b.py", "c.py", "d.py", "e.py", "f.py"}, 3, 1); !reflect.DeepEqual(got, again) {
		t.Errorf("seeded sample differs: %v vs %v", got, again)
	}
	if all := sampleFiles(files, 10, 1); len(all) != 6 || all[0] != "a.py" {
		t.Errorf("n above the count: %v", all)
	}
	if files[0] != "e.py" {
		t.Errorf("the input was reordered: %v", files)
	}
}

func TestPythonSources(t *testing.T) {
	got := pythonSources([]string{"a.py", "b.pyi", "c.py-tpl", "d/e.py"})
	if !reflect.DeepEqual(got, []string{"a.py", "d/e.py"}) {
		t.Errorf("%v", got)
	}
}

func TestParseStat(t *testing.T) {
	for _, tc := range []struct {
		line      string
		pid, ppid int
		ok        bool
	}{
		{"1234 (pyws) S 1000 1234 1000 0 -1", 1234, 1000, true},
		{"77 (node (worker) x) R 76 77 76", 77, 76, true},
		{"garbage", 0, 0, false},
	} {
		pid, ppid, ok := parseStat(tc.line)
		if pid != tc.pid || ppid != tc.ppid || ok != tc.ok {
			t.Errorf("%q: %d %d %v", tc.line, pid, ppid, ok)
		}
	}
}

func TestLoggedIndexBuild(t *testing.T) {
	for _, c := range []struct {
		log  string
		want time.Duration
	}{
		{`{"time":"t","level":"INFO","msg":"workspace indexed","root":"/w","files":6,"elapsed":1146000000}` + "\n", 1146 * time.Millisecond},
		{"time=t level=INFO msg=\"workspace indexed\" root=/w files=6 elapsed=1.2s\n", 1200 * time.Millisecond},
		{`{"msg":"serving"}`, 0},
	} {
		if got := loggedIndexBuild(c.log); got != c.want {
			t.Errorf("%q: %v, want %v", c.log, got, c.want)
		}
	}
}
