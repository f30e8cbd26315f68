from pkg.sub import helper as helper
