# flat is a module, not a package: this file is never imported
