package api

import (
	"net/http"

	"github.com/pyws/pyws/host/fault"
)

// statuses is the one table from error code to HTTP status: every error
// pyws sends, internal ones included, gets its status here, and the table
// in docs/api.md is generated from it (go test ./api -update).
var statuses = []struct {
	Code   string
	Status int
}{
	{fault.InvalidParameter, http.StatusBadRequest},
	{fault.InvalidName, http.StatusBadRequest},
	{fault.InvalidPosition, http.StatusBadRequest},
	{fault.InvalidOptions, http.StatusBadRequest},
	{fault.InvalidFilter, http.StatusBadRequest},
	{fault.InvalidRange, http.StatusBadRequest},
	{fault.ConflictingEdits, http.StatusBadRequest},

	{fault.AuthenticationFailed, http.StatusUnauthorized},

	{fault.PermissionDenied, http.StatusForbidden},
	{fault.ReadonlyFile, http.StatusForbidden},

	{fault.FileNotFound, http.StatusNotFound},
	{fault.WorkspaceNotFound, http.StatusNotFound},
	{fault.NoSymbolFound, http.StatusNotFound},
	{fault.NoDefinitionFound, http.StatusNotFound},
	{fault.NoHoverInfo, http.StatusNotFound},

	{fault.NameConflict, http.StatusConflict},
	{fault.FileModified, http.StatusConflict},

	{fault.FileTooLarge, http.StatusRequestEntityTooLarge},

	{fault.InvalidPython, http.StatusUnprocessableEntity},
	{fault.ParseError, http.StatusUnprocessableEntity},
	{fault.EncodingError, http.StatusUnprocessableEntity},
	{fault.CannotRename, http.StatusUnprocessableEntity},
	{fault.ExternalDefinition, http.StatusUnprocessableEntity},

	{fault.RateLimitExceeded, http.StatusTooManyRequests},

	{fault.WorkspaceNotIndexed, http.StatusServiceUnavailable},
	{fault.WorkspaceNotLoaded, http.StatusServiceUnavailable},
	{fault.ServerUnavailable, http.StatusServiceUnavailable},
	{fault.MaintenanceMode, http.StatusServiceUnavailable},

	{fault.Timeout, http.StatusGatewayTimeout},
	{fault.ScanTimeout, http.StatusGatewayTimeout},
}

var statusOf = func() map[string]int {
	m := make(map[string]int, len(statuses))
	for _, s := range statuses {
		m[s.Code] = s.Status
	}
	return m
}()

// StatusOf returns the HTTP status for an error code; unknown codes are
// server faults.
func StatusOf(code string) int {
	if s, ok := statusOf[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// StatusTable returns a copy of the code-to-status table (for docs and tests).
func StatusTable() map[string]int {
	out := make(map[string]int, len(statusOf))
	for k, v := range statusOf {
		out[k] = v
	}
	return out
}
