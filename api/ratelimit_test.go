package api_test

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pyws/pyws/api"
	"github.com/pyws/pyws/host/metrics"
	"github.com/pyws/pyws/host/ratelimit"
	"github.com/pyws/pyws/host/service"
	"github.com/pyws/pyws/host/tenants"
	"github.com/pyws/pyws/host/tiers"
)

// The limiter (host/ratelimit) is what the api calls before every
// operation; this test lives here because host may not import api.
var _ api.Limiter = (*ratelimit.Limiter)(nil)

// TestRateLimitThroughAPI wires the limiter the way serve.go does and spends a free
// key's list-files budget (20/hour) over HTTP: the 21st answer is 429 with
// the spec's details and the rate-limit headers; health_check is never
// charged.
func TestRateLimitThroughAPI(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := metrics.New()
	svc := service.New(service.Config{DefaultWorkspace: dir, Metrics: rec})
	defer svc.Close()
	keys, err := tenants.Open("")
	if err != nil {
		t.Fatal(err)
	}
	const secret = "pyws_test_free"
	keys.AddInMemory(secret, tenants.Key{ID: "key_free", Tenant: "t", Tier: tiers.Free, Workspace: dir, CreatedAt: time.Now()})
	app := api.New(api.Options{
		Service: svc,
		Keys:    keys,
		Limiter: ratelimit.New(nil, ratelimit.Options{OnDecision: rec.LimiterDecision}),
	})
	get := func(path string) (int, map[string]string, map[string]any) {
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("Authorization", "Bearer "+secret)
		resp, err := app.Test(req, -1)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		h := map[string]string{}
		for _, name := range []string{ratelimit.HeaderLimit, ratelimit.HeaderRemaining, ratelimit.HeaderReset, ratelimit.HeaderRetryAfter} {
			if v := resp.Header.Get(name); v != "" {
				h[name] = v
			}
		}
		var body map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&body)
		return resp.StatusCode, h, body
	}
	for i := 1; i <= 20; i++ {
		status, h, body := get(api.Prefix + "/resources/files")
		if h[ratelimit.HeaderLimit] != "20" || h[ratelimit.HeaderRemaining] == "" {
			t.Fatalf("request %d: status %d headers %v body %v", i, status, h, body)
		}
	}
	status, h, body := get(api.Prefix + "/resources/files")
	if status != 429 || h[ratelimit.HeaderRetryAfter] == "" || h[ratelimit.HeaderRemaining] != "0" {
		t.Fatalf("21st: status %d headers %v body %v", status, h, body)
	}
	e, _ := body["error"].(map[string]any)
	d, _ := e["details"].(map[string]any)
	if e["code"] != "RATE_LIMIT_EXCEEDED" || d["limit"] != float64(20) || d["remaining"] != float64(0) ||
		d["resetAt"] == nil || d["window"] != "hour" || d["family"] != "list_files" {
		t.Fatalf("21st: body %v", body)
	}
	t.Logf("21st list-files request: %d %v %v", status, h, body)
	// A request failing validation is refused before Charge: no headers,
	// nothing counted (it would otherwise read 429 here).
	status, h, _ = get(api.Prefix + "/resources/files?includeTests=maybe")
	if status == 429 || len(h) != 0 {
		t.Fatalf("invalid request: status %d headers %v, want a validation error, uncharged", status, h)
	}
	// health_check is never charged, even with the budget spent.
	for i := 0; i < 3; i++ {
		if status, h, body := get(api.Prefix + "/tools/health_check"); status == 429 || len(h) != 0 {
			t.Fatalf("health_check: status %d headers %v body %v", status, h, body)
		}
	}
	for decision, want := range map[string]float64{"allowed": 20, "refused": 1} {
		if got := decisionMetric(t, rec, "list_files", decision); got != want {
			t.Fatalf("pyws_ratelimit_decisions_total{family=list_files,decision=%s} = %v, want %v", decision, got, want)
		}
	}
}

func decisionMetric(t *testing.T, rec *metrics.Recorder, family, decision string) float64 {
	t.Helper()
	mfs, err := rec.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != "pyws_ratelimit_decisions_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			labels := map[string]string{}
			for _, lp := range m.GetLabel() {
				labels[lp.GetName()] = lp.GetValue()
			}
			if labels["family"] == family && labels["decision"] == decision {
				return m.GetCounter().GetValue()
			}
		}
	}
	return 0
}
