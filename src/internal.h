/* Private: marks functions shared between libkeps's source files but not
 * part of its API (include/keps/). They stay out of libkeps.so's dynamic
 * symbol table; the static library links them as usual. */
#ifndef KEPS_INTERNAL_H
#define KEPS_INTERNAL_H
#if defined(__GNUC__) && !defined(_WIN32)
#define KEPS_INTERNAL __attribute__((visibility("hidden")))
#else
#define KEPS_INTERNAL
#endif
#endif
