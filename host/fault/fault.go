// Package fault is the one error type pyws shows its callers: a spec error
// code, a human message and a details object. Every layer that refuses a
// request returns a *fault.Error; the api layer renders it as the error
// envelope and maps its code to an HTTP status. Any other error reaching the
// api is an internal failure and is never shown raw.
package fault

import (
	"errors"
	"fmt"
)

// Codes from the service spec's error catalogue. Names are exact.
const (
	InvalidName          = "INVALID_NAME"
	NameConflict         = "NAME_CONFLICT"
	NoSymbolFound        = "NO_SYMBOL_FOUND"
	CannotRename         = "CANNOT_RENAME"
	WorkspaceNotIndexed  = "WORKSPACE_NOT_INDEXED"
	WorkspaceNotLoaded   = "WORKSPACE_NOT_LOADED"
	FileNotFound         = "FILE_NOT_FOUND"
	InvalidPosition      = "INVALID_POSITION"
	Timeout              = "TIMEOUT"
	NoDefinitionFound    = "NO_DEFINITION_FOUND"
	ExternalDefinition   = "EXTERNAL_DEFINITION"
	NoHoverInfo          = "NO_HOVER_INFO"
	InvalidPython        = "INVALID_PYTHON"
	ParseError           = "PARSE_ERROR"
	InvalidOptions       = "INVALID_OPTIONS"
	FileTooLarge         = "FILE_TOO_LARGE"
	PermissionDenied     = "PERMISSION_DENIED"
	InvalidRange         = "INVALID_RANGE"
	ConflictingEdits     = "CONFLICTING_EDITS"
	FileModified         = "FILE_MODIFIED"
	ReadonlyFile         = "READONLY_FILE"
	ServerUnavailable    = "SERVER_UNAVAILABLE"
	AuthenticationFailed = "AUTHENTICATION_FAILED"
	MaintenanceMode      = "MAINTENANCE_MODE"
	WorkspaceNotFound    = "WORKSPACE_NOT_FOUND"
	InvalidParameter     = "INVALID_PARAMETER"
	ScanTimeout          = "SCAN_TIMEOUT"
	EncodingError        = "ENCODING_ERROR"
	InvalidFilter        = "INVALID_FILTER"
	RateLimitExceeded    = "RATE_LIMIT_EXCEEDED"
)

// Details is the free-form object carried in the envelope's details field.
type Details map[string]any

// Error is a refusal the caller can act on.
type Error struct {
	Code    string
	Message string
	Details Details
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// New returns an error with code and a formatted message.
func New(code string, details Details, format string, args ...any) *Error {
	if details == nil {
		details = Details{}
	}
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Details: details}
}

// As reports whether err carries a *Error and returns it.
func As(err error) (*Error, bool) {
	var fe *Error
	if errors.As(err, &fe) {
		return fe, true
	}
	return nil, false
}

// CodeOf returns the code of err, or "" when err is not a *Error.
func CodeOf(err error) string {
	if fe, ok := As(err); ok {
		return fe.Code
	}
	return ""
}
