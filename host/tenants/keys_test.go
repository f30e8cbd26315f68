package tenants

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pyws/pyws/host/tiers"
)

func TestAddLookupRevoke(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "keys.json")
	key, k, err := Add(path, AddOptions{Tier: tiers.Hobby, Tenant: "acme", Workspace: dir})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(key, KeyPrefix) || k.Tenant != "acme" || k.Workspace != dir {
		t.Fatalf("key %q entry %+v", key, k)
	}
	raw, _ := os.ReadFile(path)
	if strings.Contains(string(raw), key) {
		t.Fatal("the keys file holds the key itself, not only its hash")
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("keys file mode %v, want 0600", st.Mode().Perm())
	}

	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := s.Lookup(key)
	if !ok || got.Tier != tiers.Hobby {
		t.Fatalf("Lookup = %+v, %v", got, ok)
	}
	for _, bad := range []string{"", "pyws_nope", key + "x", strings.ToUpper(key)} {
		if _, ok := s.Lookup(bad); ok {
			t.Fatalf("Lookup(%q) succeeded", bad)
		}
	}

	// A key added and a key revoked by another process are seen without a
	// restart.
	key2, _, err := Add(path, AddOptions{Tier: tiers.Free})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Revoke(path, k.ID); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, ok1 := s.Lookup(key)
		_, ok2 := s.Lookup(key2)
		if !ok1 && ok2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after revoke/add: old key valid %v, new key valid %v", ok1, ok2)
		}
		time.Sleep(20 * time.Millisecond)
	}
	keys, _ := List(path)
	if len(keys) != 2 || keys[0].Active() {
		t.Fatalf("List = %+v", keys)
	}
}

func TestBrokenFileKeepsLastGoodKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.json")
	key, _, err := Add(path, AddOptions{Tier: tiers.Pro})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	time.Sleep(reloadEvery + 10*time.Millisecond)
	if _, ok := s.Lookup(key); !ok {
		t.Fatal("a broken keys file locked out a valid key")
	}
	if _, err := Open(path); err == nil {
		t.Fatal("Open accepted a broken keys file")
	}
}

func TestAddRejects(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.json")
	if _, _, err := Add(path, AddOptions{Tier: tiers.Free, Workspace: "/does/not/exist"}); err == nil {
		t.Fatal("Add accepted a missing workspace")
	}
	if _, err := Revoke(path, "key_missing"); err == nil {
		t.Fatal("Revoke of an unknown key succeeded")
	}
}
