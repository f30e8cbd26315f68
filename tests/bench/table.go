package main

import (
	"fmt"
	"io"
	"math/rand"
	"sort"
	"strings"
	"time"
)

// figure is one measured quantity: a duration or a size in MiB. A zero
// figure with a note was not measured (its tool is missing or failed).
type figure struct {
	dur  time.Duration
	mib  float64
	note string // why it is missing, or what it counts ("n=200")
}

func timed(d time.Duration) figure { return figure{dur: d} }
func mebibytes(m float64) figure   { return figure{mib: m} }
func missing(why string) figure    { return figure{note: why} }

func (f figure) ok() bool { return f.dur > 0 || f.mib > 0 }
func (f figure) value() float64 {
	if f.mib > 0 {
		return f.mib
	}
	return f.dur.Seconds()
}

func (f figure) String() string {
	var s string
	switch {
	case f.mib > 0:
		s = fmt.Sprintf("%.0f MiB", f.mib)
	case f.dur >= time.Second:
		s = fmt.Sprintf("%.2f s", f.dur.Seconds())
	case f.dur > 0:
		s = fmt.Sprintf("%.1f ms", float64(f.dur.Microseconds())/1000)
	default:
		return "- (" + f.note + ")"
	}
	if f.note != "" {
		s += " (" + f.note + ")"
	}
	return s
}

// row is one line of the table: pyws's figure against one anchor.
type row struct {
	figure     string
	pyws       figure
	anchorName string
	anchor     figure
}

// ratio is pyws / anchor ("-" when either is missing): below 1 pyws
// takes less time or memory.
func (r row) ratio() string {
	if !r.pyws.ok() || !r.anchor.ok() {
		return "-"
	}
	return fmt.Sprintf("%.2f", r.pyws.value()/r.anchor.value())
}

// writeTable prints rows as a Markdown table.
func writeTable(w io.Writer, rows []row) {
	fmt.Fprintln(w, "| figure | pyws | anchor | ratio pyws/anchor |")
	fmt.Fprintln(w, "|---|---:|---:|---:|")
	for _, r := range rows {
		anchor := "-"
		if r.anchorName != "" {
			anchor = r.anchorName + " " + r.anchor.String()
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", r.figure, r.pyws, anchor, r.ratio())
	}
}

// percentiles returns the p50 and p99 of d (sorted in place).
func percentiles(d []time.Duration) (p50, p99 time.Duration) {
	if len(d) == 0 {
		return 0, 0
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[len(d)/2], d[min(len(d)-1, len(d)*99/100)]
}

// sampleFiles picks n of files with a seeded shuffle and returns them
// sorted: the same files for every engine of a run, and of every run.
func sampleFiles(files []string, n int, seed int64) []string {
	all := append([]string(nil), files...)
	sort.Strings(all)
	if n > 0 && n < len(all) {
		r := rand.New(rand.NewSource(seed))
		r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		all = all[:n]
		sort.Strings(all)
	}
	return all
}

// pythonSources keeps the .py files (the formatters and checkers take no
// stubs).
func pythonSources(files []string) []string {
	var out []string
	for _, f := range files {
		if strings.HasSuffix(f, ".py") {
			out = append(out, f)
		}
	}
	return out
}
