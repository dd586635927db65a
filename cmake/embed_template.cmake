# Joins the HTML report template (page, style sheet, script) into one text
# and writes it as a C array, so that the template lives in the repository
# as ordinary HTML, CSS and JavaScript files:
#   cmake -DDIR=src/report_html -DOUT=report_template.c -P embed_template.cmake
file(READ ${DIR}/report.html page)
file(READ ${DIR}/report.css css)
file(READ ${DIR}/report.js js)
# Nothing inside the style sheet or the script may end its element early,
# nor carry a marker the renderer fills in.
foreach(part css js)
  string(TOLOWER "${${part}}" lower)
  string(FIND "${lower}" "</script" a)
  string(FIND "${lower}" "</style" b)
  string(FIND "${${part}}" "@KEPS_" c)
  if(NOT a EQUAL -1 OR NOT b EQUAL -1 OR NOT c EQUAL -1)
    message(FATAL_ERROR "report.${part} holds '</script', '</style' or '@KEPS_'")
  endif()
endforeach()
string(REPLACE "@KEPS_CSS@" "${css}" page "${page}")
string(REPLACE "@KEPS_JS@" "${js}" page "${page}")
foreach(marker @KEPS_TITLE@ @KEPS_REPORT@)
  string(FIND "${page}" "${marker}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "report.html lacks ${marker}")
  endif()
endforeach()
file(WRITE ${OUT}.txt "${page}")
file(READ ${OUT}.txt hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x..,){16})" "\\1\n" bytes "${bytes}")
file(WRITE ${OUT}.tmp "/* Generated from src/report_html/ by cmake/embed_template.cmake: do not edit. */\n"
  "#include \"report_template.h\"\n\nconst char keps_report_template[] = {\n${bytes}0x00};\n")
file(REMOVE ${OUT}.txt)
# Only a changed text touches the output, so that nothing rebuilds needlessly.
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUT}.tmp ${OUT})
file(REMOVE ${OUT}.tmp)
