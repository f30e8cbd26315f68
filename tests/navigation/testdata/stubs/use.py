from lib.fast import compute  #@ lib:r:lib fast:r:fast compute:r:compute

compute(3)  #@ compute:r:compute
