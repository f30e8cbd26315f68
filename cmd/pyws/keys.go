package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/pyws/pyws/host/tenants"
	"github.com/pyws/pyws/host/tiers"
)

func keysCommand(args []string, out io.Writer) error {
	if len(args) == 0 {
		return errors.New("keys: want add, list or revoke")
	}
	fs := flag.NewFlagSet("keys "+args[0], flag.ContinueOnError)
	keysPath := fs.String("keys", "", "keys file (created when missing)")
	tier := fs.String("tier", "", "tier: free, hobby, pro or enterprise (add)")
	workspace := fs.String("workspace", "", "workspace directory of the key (add; default: the server's --workspace)")
	tenant := fs.String("tenant", "", "tenant name (add; default: the key id)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *keysPath == "" {
		return errors.New("keys: --keys FILE is required")
	}
	switch args[0] {
	case "add":
		t, err := tiers.Parse(*tier)
		if err != nil {
			return fmt.Errorf("keys add: --tier: %w", err)
		}
		key, k, err := tenants.Add(*keysPath, tenants.AddOptions{Tier: t, Tenant: *tenant, Workspace: *workspace})
		if err != nil {
			return err
		}
		ws := k.Workspace
		if ws == "" {
			ws = "(server default)"
		}
		fmt.Fprintf(out, "created key %s for tenant %s, tier %s, workspace %s\n", k.ID, k.Tenant, k.Tier, ws)
		fmt.Fprintln(out, "the key is shown once; store it now:")
		fmt.Fprintln(out, key)
	case "list":
		keys, err := tenants.List(*keysPath)
		if err != nil {
			return err
		}
		w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tTENANT\tTIER\tWORKSPACE\tCREATED\tSTATUS")
		for _, k := range keys {
			status := "active"
			if !k.Active() {
				status = "revoked " + k.RevokedAt.Format("2006-01-02T15:04:05Z")
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", k.ID, k.Tenant, k.Tier, k.Workspace, k.CreatedAt.Format("2006-01-02T15:04:05Z"), status)
		}
		return w.Flush()
	case "revoke":
		if fs.NArg() != 1 {
			return errors.New("keys revoke: want the key id (or the key itself)")
		}
		k, err := tenants.Revoke(*keysPath, fs.Arg(0))
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "revoked %s (tenant %s)\n", k.ID, k.Tenant)
	default:
		return fmt.Errorf("keys: unknown subcommand %q: want add, list or revoke", args[0])
	}
	return nil
}
