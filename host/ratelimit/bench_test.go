package ratelimit

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/pyws/pyws/host/tenants"
	"github.com/pyws/pyws/host/tiers"
)

// benchCharge measures one Charge per op in three cases: allowed (two
// windows charged; a fresh Pro key every 4000 calls keeps the analysis
// budget of 5000/hour open), refused (hour window charged and rolled back,
// day window peeked) and enterprise (no store call).
// benchRun makes key IDs unique per benchmark round: the store keeps
// counters across the rounds b.N calibration makes.
var benchRun atomic.Int64

func benchCharge(b *testing.B, l *Limiter, prefix string) {
	ctx := context.Background()
	b.Run("allowed", func(b *testing.B) {
		var k *tenants.Key
		for i := 0; i < b.N; i++ {
			if i%4000 == 0 {
				k = key(fmt.Sprintf("%s-allowed-%d", prefix, benchRun.Add(1)), tiers.Pro)
			}
			if _, err := l.Charge(ctx, k, tiers.FamilyAnalysis); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("allowed-parallel", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			var k *tenants.Key
			for i := 0; pb.Next(); i++ {
				if i%4000 == 0 {
					k = key(fmt.Sprintf("%s-par-%d", prefix, benchRun.Add(1)), tiers.Pro)
				}
				if _, err := l.Charge(ctx, k, tiers.FamilyAnalysis); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
	b.Run("refused", func(b *testing.B) {
		k := key(fmt.Sprintf("%s-refused-%d", prefix, benchRun.Add(1)), tiers.Free)
		for i := 0; i < 5; i++ {
			if _, err := l.Charge(ctx, k, tiers.FamilyRename); err != nil {
				b.Fatal(err)
			}
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := l.Charge(ctx, k, tiers.FamilyRename); err == nil {
				b.Fatal("allowed over the limit")
			}
		}
	})
	b.Run("enterprise", func(b *testing.B) {
		k := key(prefix+"-ent", tiers.Enterprise)
		for i := 0; i < b.N; i++ {
			if _, err := l.Charge(ctx, k, tiers.FamilyAnalysis); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkChargeMemory(b *testing.B) {
	benchCharge(b, New(nil, Options{}), "mem")
}

func BenchmarkChargeRedis(b *testing.B) {
	r := startRedis(b)
	l, _ := newRedisLimiter(b, r.url(), Options{})
	benchCharge(b, l, "redis")
}
