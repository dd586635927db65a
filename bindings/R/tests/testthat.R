library(testthat)
library(keps)

test_check("keps")
