# -*- coding: utf-8 -*-
"""A small, realistic module used to exercise the formatter."""
from __future__ import annotations
import os, sys
from typing import Any, Dict, List, Optional
__all__ = ['Config', 'load_config']
DEFAULT_TIMEOUT=30 # seconds
class ConfigError(Exception):
    '''Raised when the configuration is invalid.'''
class Config(object):
    """Holds settings.

       Attributes are loaded lazily.
    """
    def __init__(self, path: str, *, strict: bool=False, overrides: Optional[Dict[str, Any]]=None):
        self.path=path
        self.strict = strict
        self.overrides = overrides or {}
        self._cache: Dict[str, Any] = {}
    def __repr__(self):
        return '<Config path=%r strict=%r>' % (self.path, self.strict)
    @property
    def name(self):
        return os.path.splitext(os.path.basename(self.path))[0]
    def get(self, key, default = None):
        if key in self.overrides: return self.overrides[key]
        try:
            return self._cache[key]
        except KeyError:
            pass
        value = self._load().get(key, default)
        self._cache[key]=value
        return value
    def _load(self) -> Dict[str, Any]:
        with open(self.path, encoding = 'utf-8') as fh:
            lines = [l.strip() for l in fh.readlines() if l.strip() and not l.strip().startswith('#')]
        result = {}
        for line in lines:
            if '=' not in line:
                if self.strict: raise ConfigError("invalid line in %s: %r (expected key = value)" % (self.path, line))
                continue
            key, _, value = line.partition('=')
            result[key.strip()] = value.strip()
        return result
def load_config(path = None, **kwargs) -> Config:
    path = path or os.environ.get('APP_CONFIG', os.path.join(os.path.dirname(__file__), 'default.cfg'))
    return Config(path, **kwargs)
if __name__ == '__main__':
    cfg = load_config(sys.argv[1] if len(sys.argv) > 1 else None)
    print(cfg.name, cfg.get('timeout', DEFAULT_TIMEOUT), file = sys.stderr)
