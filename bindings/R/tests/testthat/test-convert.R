roundtrip <- function(df) {
  cols <- keps:::as_columns(df, "df")
  keps:::as_frame(.Call(keps:::rk_roundtrip, cols, names(df), NULL, "df"), df)
}

test_that("a data frame survives the trip into a keps table and back", {
  df <- mixed_frame()
  back <- roundtrip(df)
  expect_identical(names(back), names(df))
  expect_identical(back$city, df$city) # factor: same levels (unused one kept), NA kept
  # character: the empty string is keps's missing value, as an empty CSV field is
  expect_equal(back$place, c("Zürich", "東京", "Köln", NA, "a \"quoted\"; field", NA))
  expect_identical(Encoding(back$place[1]), "UTF-8")
  expect_identical(back$height, c(170.5, NA, 0.1, 1e-5, 0, 182.25))
  expect_identical(back$age, df$age)
  expect_identical(back$adult, df$adult)
  expect_identical(back$day, df$day)
})

test_that("the table is the one the CLI's reader builds from the same data as CSV", {
  df <- mixed_frame()
  df$place[6] <- NA
  path <- tempfile(fileext = ".csv")
  on.exit(unlink(path))
  out <- df
  out$city <- as.character(out$city)
  write.table(out, path, sep = ";", na = "", row.names = FALSE, fileEncoding = "UTF-8", qmethod = "double")
  from_file <- read_csv(path)
  via_frame <- keps:::as_frame(.Call(keps:::rk_roundtrip, keps:::as_columns(df, "df"), names(df), NULL, "df"))
  # without a template both say what keps infers: numbers where every value is one
  expect_identical(via_frame, from_file)
  expect_type(from_file$height, "double")
  expect_type(from_file$city, "character")
})

test_that("factor codes map straight to the dictionary, in first-appearance order", {
  f <- factor(c("b", "a", "b", NA, "c"), levels = c("c", "b", "a"))
  rt <- .Call(keps:::rk_roundtrip, list(f), "f", NULL, "df")[[1]]
  # keps numbers a column's values as it first meets them: b, a, (missing), c
  expect_identical(levels(rt), c("b", "a", "c"))
  expect_identical(as.character(rt), c("b", "a", "b", NA, "c"))
})

test_that("numbers are written as the shortest text that reads back exactly", {
  x <- c(0.1, 1 / 3, 1e22, 123456789, 2^-1074, -2.5)
  rt <- .Call(keps:::rk_roundtrip, list(x), "x", NULL, "df")[[1]]
  expect_identical(as.numeric(levels(rt)[rt]), x)
  expect_identical(levels(rt)[c(1, 4, 6)], c("0.1", "123456789", "-2.5"))
})

test_that("unsupported columns and infinite numbers are input errors", {
  expect_error(keps:::as_columns(data.frame(x = c(1, Inf)), "df"),
               class = "keps_input_error", regexp = "df:2:x")
  df <- data.frame(id = 1:2)
  df$l <- list(1, 2)
  expect_error(keps:::as_columns(df, "df"), class = "keps_input_error", regexp = "column 'l'")
  expect_error(keps:::as_columns(list(a = 1), "df"), class = "keps_input_error")
})

test_that("duplicate column names are refused by the library", {
  df <- data.frame(a = 1, a = 2, check.names = FALSE)
  expect_error(.Call(keps:::rk_roundtrip, keps:::as_columns(df, "df"), names(df), NULL, "df"),
               class = "keps_input_error")
})

test_that("read_csv reads as keps reads", {
  path <- tempfile(fileext = ".csv")
  on.exit(unlink(path))
  writeLines(c("zip;age;name", "01097;39;Ana", "10115;;\"B;b\"", "80331;41.5;Çelik"), path, useBytes = TRUE)
  d <- read_csv(path)
  expect_identical(d$zip, c("01097", "10115", "80331")) # a leading zero makes codes
  expect_identical(d$age, c(39, NA, 41.5))
  expect_identical(d$name, c("Ana", "B;b", "Çelik"))
  writeLines(c("a,b", "1,2", "3"), path)
  expect_error(read_csv(path), class = "keps_input_error", regexp = ":3:")
  expect_error(read_csv(file.path(tempdir(), "no-such-file.csv")), class = "keps_error")
})

test_that("Adult as read.csv reads it converts in and out unchanged", {
  a <- read.csv(keps_example("adult.csv"), sep = ";", check.names = FALSE)
  expect_identical(roundtrip(a), a)
  expect_identical(nrow(a), 30162L)
})

test_that("codes stay codes and text stays text", {
  # a leading zero makes a column of codes (docs/spec.md, section 1)
  df <- data.frame(zip = c("01097", "02110", "10115"), n = c("1", "2", "3"))
  back <- roundtrip(df)
  expect_identical(back$zip, c("01097", "02110", "10115"))
  # keps could read n as numbers, but the caller gave text: it comes back as text
  expect_identical(back$n, c("1", "2", "3"))
})

test_that("the missing token is NA's text and reads back as NA", {
  # missing = "NA": NA and the text "NA" are both the missing value; "" is a value
  df <- data.frame(a = c("x", NA, "NA", ""))
  t <- .Call(keps:::rk_roundtrip, keps:::as_columns(df, "df"), "a", "NA", "df")
  expect_identical(levels(t$a), c("x", ""))
  expect_identical(keps:::as_frame(t, df)$a, c("x", NA, NA, ""))
})

test_that("frames keps cannot take are input errors naming what to fix", {
  no_cols <- data.frame(a = 1:2)[, 0, drop = FALSE]
  expect_error(keps:::as_columns(no_cols, "df"), class = "keps_input_error", regexp = "no columns")
  df <- data.frame(a = 1)
  names(df) <- ""
  expect_error(.Call(keps:::rk_roundtrip, keps:::as_columns(df, "df"), names(df), NULL, "df"),
               class = "keps_input_error", regexp = "df:1:1: column 1 has an empty name")
})

test_that("an I/O failure is a resource error with exit code 3", {
  skip_if_not(file.exists("/proc/self/mem"))
  # reading /proc/self/mem at offset 0 fails with EIO on Linux
  e <- expect_error(read_csv("/proc/self/mem"), class = "keps_resource_error", regexp = "Input/output error")
  expect_identical(e$exit_code, 3L)
})
