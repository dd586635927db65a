/* keps: the version of the library linked. */
#ifndef KEPS_VERSION_H
#define KEPS_VERSION_H

#ifdef __cplusplus
extern "C" {
#endif

/* The version string ("0.1.0") every CLI report carries as keps_version.
 * KEPS_VERSION is a define of keps's own build, invisible to callers, so
 * this is how a caller states which keps produced its release. Static
 * storage: never freed. */
const char *keps_version(void);

#ifdef __cplusplus
}
#endif
#endif
