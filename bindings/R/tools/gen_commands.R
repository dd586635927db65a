# Writes R/commands.R: one function per keps command, its arguments and
# roxygen documentation generated from the library's catalog (keps/command.h,
# keps_commands): argument names are the parameters' names with underscores,
# help texts render {name} as the R argument. Run from bindings/R with the
# package installed against the library whose catalog is wanted:
#   Rscript tools/gen_commands.R && Rscript -e 'roxygen2::roxygenise()'
# scripts/r_check.sh runs it and fails when the committed file differs.
library(keps)

# The commands with a function of their own (privacy's calculators get one
# each below; hierarchy, split and report stay with the CLI and the
# hand-written hierarchy functions).
commands <- c("anonymize", "kepsilon", "dpmicro", "safela", "rr", "verify", "risk", "evaluate", "noise",
              "audit")
# R-side examples: the catalog's example names files of the source tree;
# these run on the bundled data (keps_example()).
examples <- list(
  anonymize = c('adult <- read_csv(keps_example("adult.csv"))',
                'r <- anonymize(adult, qi = list(age = "interval=5,10,20", sex = NULL,',
                '               race = keps_example("adult_hierarchy_race.csv")),',
                '               others = "keep", k = 5, suppress = 0.05)',
                'r',
                'head(r$release)',
                'r$report$guarantee'),
  noise = c('noise(value = 42, mechanism = "laplace", epsilon = 1, count = 3)$report$releases')
)

cat_ <- keps:::keps_catalog()
PARAM_OUTPUT <- keps:::PARAM_OUTPUT
PARAM_COMMON <- keps:::PARAM_COMMON
PARAM_PATH <- keps:::PARAM_PATH
PARAM_REPEAT <- keps:::PARAM_REPEAT
has <- keps:::has_flag
arg <- keps:::arg_name

# {name} -> `name` (the R argument), and text made safe for roxygen's
# markdown and Rd: backslashes, percent signs and braces escaped.
render <- function(text) {
  if (is.null(text) || is.na(text)) return("")
  parts <- regmatches(text, gregexpr("\\{[a-z0-9-]+\\}", text), invert = NA)[[1L]]
  out <- vapply(parts, function(p) {
    if (grepl("^\\{[a-z0-9-]+\\}$", p)) return(paste0("`", arg(substr(p, 2L, nchar(p) - 1L)), "`"))
    p <- gsub("\\", "\\\\", p, fixed = TRUE)
    p <- gsub("%", "\\%", p, fixed = TRUE)
    p <- gsub("{", "\\{", p, fixed = TRUE)
    gsub("}", "\\}", p, fixed = TRUE)
  }, "")
  paste(out, collapse = "")
}

roxygen <- function(text) paste0("#' ", strwrap(text, width = 100), collapse = "\n")

# The documented R value of a parameter's example ("1.0" -> 1.0, a path as
# text, several values of a repeatable one as a vector).
example_value <- function(ex, flags, metavar) {
  if (is.na(ex)) return(NULL)
  if (is.na(metavar)) return("TRUE")
  v <- strsplit(ex, "\n", fixed = TRUE)[[1L]]
  num <- suppressWarnings(as.numeric(v))
  lit <- if (!anyNA(num) && all(grepl("^[-+0-9.eE]+$", v))) v else paste0("\"", gsub("\"", "\\\"", v, fixed = TRUE), "\"")
  if (length(lit) == 1L) lit else paste0("c(", paste(lit, collapse = ", "), ")")
}

param_doc <- function(p) {
  a <- arg(p$name)
  help <- render(p$help)
  how <- if (is.na(p$metavar)) {
    "`TRUE` or `FALSE`."
  } else if (has(p$flags, PARAM_OUTPUT)) {
    "`TRUE` asks for this output; it comes back in `$outputs` (the CLI writes it to a file)."
  } else if (has(p$flags, PARAM_PATH)) {
    "A data frame, or the path of a CSV file."
  } else if (has(p$flags, PARAM_REPEAT) && grepl(":", p$metavar, fixed = TRUE)) {
    paste("A character vector of column names, or a named list: name = the column, value = a hierarchy",
          "(a data frame in ARX's layout, see [as_hierarchy()], or a file), a builder such as",
          "`\"interval=5,10,20\"`, or `NULL` for none.")
  } else if (has(p$flags, PARAM_REPEAT)) {
    "One value or a vector of them."
  } else ""
  ex <- example_value(p$example, p$flags, p$metavar)
  ex <- if (is.null(ex) || has(p$flags, PARAM_OUTPUT)) "" else paste0("Example: `", a, " = ", ex, "`.")
  paste0("#' @param ", a, " ", sub("^#' ", "", roxygen(paste(help, how, ex))))
}

# The parameters a function takes: all but the front-end's own.
fn_params <- function(cmd) {
  ps <- cat_[[cmd]]$params
  keep <- !has(ps$flags, PARAM_COMMON)
  lapply(which(keep), function(i) lapply(ps, `[[`, i))
}

gen_function <- function(cmd, fname = cmd, fixed = list(), title = NULL, ex = examples[[cmd]]) {
  c_ <- cat_[[cmd]]
  ps <- Filter(function(p) !(p$name %in% names(fixed)), fn_params(cmd))
  args <- vapply(ps, function(p) arg(p$name), "")
  first_input <- if ("input" %in% args) "input" else NULL
  sig <- paste0(paste0(args, " = NULL"),
                collapse = ", ")
  fixed_txt <- if (length(fixed)) paste0(paste0("`", names(fixed), "` = \"", unlist(fixed), "\"", collapse = ", "), ", ") else ""
  call_args <- paste0(c(sprintf('"%s" = "%s"', names(fixed), unlist(fixed)), sprintf("%s = %s", args, args)),
                      collapse = ", ")
  lines <- c(
    roxygen(if (is.null(title)) render(c_$summary) else title),
    "#'",
    roxygen(render(c_$description)),
    "#'",
    roxygen(paste0("The `keps ", cmd, "` command as a function (", fixed_txt,
                   "the same parameters and report; see `keps ", cmd, " --help`).")),
    "#'",
    vapply(ps, param_doc, ""),
    "#' @param quiet `TRUE`: no notes (warnings that weaken the privacy guarantee still come).",
    paste0("#' @return A [keps_result]: `$release` (a data frame, or `NULL`), `$report` (the JSON report as a ",
           "list), `$summary`, `$outputs`."),
    "#' @family commands",
    "#' @export",
    if (!is.null(ex)) c("#' @examples", paste0("#' ", ex)),
    paste0(fname, " <- function(", sig, if (nzchar(sig)) ", ", "quiet = FALSE) {"),
    paste0("  run_command(\"", cmd, "\", list(", call_args, "), quiet",
           if (!is.null(first_input)) ", like = input", ")"),
    "}",
    "")
  paste(lines, collapse = "\n")
}

out <- c("# Generated by tools/gen_commands.R from the keps library's catalog (keps_commands):",
         "# do not edit by hand. The functions run the commands through keps_run (R/run.R).",
         "")
for (cmd in intersect(commands, names(cat_)))
  out <- c(out, gen_function(cmd))
writeLines(out, "R/commands.R")
