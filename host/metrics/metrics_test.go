package metrics

import (
	"testing"
	"time"
)

func TestSummarizeWindow(t *testing.T) {
	clock := time.Unix(1_000_000, 0)
	r := New()
	r.now = func() time.Time { return clock }
	r.start = clock.Add(-10 * time.Minute)

	for i := 0; i < 8; i++ {
		r.Observe("get_hover", "", 10*time.Millisecond)
	}
	r.Observe("get_hover", "NO_HOVER_INFO", 30*time.Millisecond)
	r.Observe("get_hover", "TIMEOUT", 30*time.Millisecond)

	got := r.Summarize()
	want := Summary{RequestsPerMinute: 2, AvgResponseTime: 14, ErrorRate: 20}
	if got != want {
		t.Fatalf("Summarize() = %+v, want %+v", got, want)
	}

	// Requests older than the window no longer count.
	clock = clock.Add(WindowLength + time.Second)
	if got := r.Summarize(); got != (Summary{}) {
		t.Fatalf("after the window: %+v, want zero", got)
	}
}

func TestSummarizeShortUptime(t *testing.T) {
	clock := time.Unix(2_000_000, 0)
	r := New()
	r.now = func() time.Time { return clock }
	r.start = clock.Add(-30 * time.Second)
	for i := 0; i < 5; i++ {
		r.Observe("health_check", "", time.Millisecond)
	}
	if got := r.Summarize().RequestsPerMinute; got != 10 {
		t.Fatalf("requestsPerMinute over 30s of uptime = %v, want 10", got)
	}
}

func TestPluginCall(t *testing.T) {
	r := New()
	r.PluginCall("get_diagnostics", "", 30*time.Millisecond)
	r.PluginCall("get_diagnostics", "", 10*time.Millisecond)
	r.PluginCall("get_diagnostics", "TIMEOUT", 5*time.Second)
	families, err := r.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]uint64{}
	for _, f := range families {
		if f.GetName() != "pyws_plugin_call_duration_seconds" {
			continue
		}
		for _, m := range f.GetMetric() {
			labels := ""
			for _, l := range m.GetLabel() {
				labels += l.GetName() + "=" + l.GetValue() + " "
			}
			counts[labels] = m.GetHistogram().GetSampleCount()
		}
	}
	if counts["outcome=ok tool=get_diagnostics "] != 2 || counts["outcome=TIMEOUT tool=get_diagnostics "] != 1 {
		t.Fatalf("plugin call counts %v", counts)
	}
}
