adult <- function() read_csv(keps_example("adult.csv"))

cli_hierarchy <- function(spec) {
  out <- tempfile(fileext = ".csv")
  on.exit(unlink(out))
  run_cli("hierarchy", "build", "-i", keps_example("adult.csv"), "--qi", spec, "-o", out)
  read_hierarchy_file(out)
}

test_that("the builders give the CLI's hierarchies", {
  a <- adult()
  expect_identical(hierarchy_interval(a$age, c(5, 10, 20), bottom = 18, top = 80),
                   cli_hierarchy("age:interval=5,10,20,bottom=18,top=80"))
  expect_identical(hierarchy_build(a, "order=2,4", column = "education"),
                   cli_hierarchy("education:order=2,4"))
  expect_identical(hierarchy_mask(a[["salary-class"]], c(1, 2)),
                   cli_hierarchy("salary-class:mask=1,2"))
  expect_identical(hierarchy_build(a$age, "top=60"), cli_hierarchy("age:top=60"))
})

test_that("an interval hierarchy has ARX's labels", {
  h <- hierarchy_interval(c(17, 23, 38), c(5, 10))
  expect_identical(h, data.frame(level0 = c("17", "23", "38"), level1 = c("[15-20[", "[20-25[", "[35-40["),
                                 level2 = c("[10-20[", "[20-30[", "[30-40["), level3 = "*"))
})

test_that("date hierarchies take Date columns", {
  h <- hierarchy_date(as.Date(c("2021-07-01", "2020-03-15", NA)), c("month", "year", "decade"))
  expect_identical(h$level1, c("2020-03", "2021-07", NA))
  expect_identical(h$level3, c("[2020, 2030[", "[2020, 2030[", NA))
  expect_identical(h$level4, rep("*", 3))
})

test_that("hierarchy files read as the library reads them", {
  path <- keps_example("adult_hierarchy_education.csv")
  expect_identical(hierarchy_read(path), read_hierarchy_file(path))
})

test_that("data-frame hierarchies are checked as files are", {
  h <- data.frame(a = c("Married", "Divorced", "Never-married", NA),
                  b = c("married", "left", "*", NA), c = c("*", "*", NA, "*"))
  # a short row is a leaf-to-root path: its leaf fills the levels it lacks,
  # and NA, NA, "*" is the missing value's row
  expect_identical(as_hierarchy(h),
                   data.frame(level0 = c("Married", "Divorced", "Never-married", NA),
                              level1 = c("married", "left", "Never-married", NA),
                              level2 = "*"))
  path <- tempfile(fileext = ".csv")
  on.exit(unlink(path))
  writeLines(c("Married;married;*", "Divorced;left;*", "Never-married;*", ";;*"), path)
  expect_identical(as_hierarchy(h), hierarchy_read(path))
  expect_identical(as_hierarchy(path), hierarchy_read(path))
  expect_identical(as_hierarchy(as.matrix(h)), as_hierarchy(h))
  bad <- data.frame(c("a", "b", "c"), c("x", "x", "y"), c("1", "2", "2"))
  expect_error(as_hierarchy(bad), class = "keps_input_error", regexp = "bad")
})

test_that("builder errors are input errors naming what to fix", {
  expect_error(hierarchy_interval(c(1, 2), c(5, 7)), class = "keps_input_error", regexp = "multiple")
  expect_error(hierarchy_interval(c("a", "b"), 5), class = "keps_input_error")
  expect_error(hierarchy_build(1:3, "zigzag=2"), class = "keps_input_error")
  expect_error(hierarchy_build(data.frame(a = 1), "top=1", column = "b"), class = "keps_input_error",
               regexp = "column 'b'")
  expect_error(hierarchy_read(file.path(tempdir(), "none.csv")), class = "keps_error")
})

test_that("the builders' labels, worked by hand", {
  # 17: [15-20[ in fives, [10-20[ in tens, [0-20[ in twenties; 85 >= 80 is top-coded
  expect_identical(hierarchy_interval(c(17, 39, 85), c(5, 10, 20), top = 80),
                   data.frame(level0 = c("17", "39", "85"), level1 = c("[15-20[", "[35-40[", ">=80"),
                              level2 = c("[10-20[", "[30-40[", ">=80"), level3 = c("[0-20[", "[20-40[", ">=80"),
                              level4 = "*"))
  # bottom = 18: values below become "<18", and the interval holding 18 starts there
  expect_identical(hierarchy_interval(c(15, 19, 25), 10, bottom = 18),
                   data.frame(level0 = c("15", "19", "25"), level1 = c("<18", "[18-20[", "[20-30["), level2 = "*"))
  expect_identical(hierarchy_mask(c("01097", "02110"), 1:3),
                   data.frame(level0 = c("01097", "02110"), level1 = c("0109*", "0211*"),
                              level2 = c("010**", "021**"), level3 = c("01***", "02***"), level4 = "*"))
  # runs of 2 then 4 sorted values; numbers sort by value (10 after 9)
  expect_identical(hierarchy_order(c(10, 9, 1, 2), c(2, 4)),
                   data.frame(level0 = c("1", "2", "9", "10"), level1 = c("[1, 2]", "[1, 2]", "[9, 10]", "[9, 10]"),
                              level2 = "[1, 10]", level3 = "*"))
  expect_identical(hierarchy_build(c(10, 20, 95), "bottom=18,top=90"),
                   data.frame(level0 = c("10", "20", "95"), level1 = c("<18", "20", ">=90"), level2 = "*"))
})

test_that("a builder's bad cell is named by row and column", {
  expect_error(hierarchy_interval(c("20", "30", "old"), 10), class = "keps_input_error",
               regexp = "x:3:1: column 'x': 'old' is not a number")
})
