/* Private: the HTML report template, joined from src/report_html/ at build
 * time (cmake/embed_template.cmake) and compiled into the library. It holds
 * the markers @KEPS_TITLE@ and @KEPS_REPORT@, once each, in that order. */
#ifndef KEPS_REPORT_TEMPLATE_H
#define KEPS_REPORT_TEMPLATE_H
#include "internal.h"

KEPS_INTERNAL extern const char keps_report_template[];

#endif
