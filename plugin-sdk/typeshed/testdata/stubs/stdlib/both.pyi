# shadowed: the package both/ wins
