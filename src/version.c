/* The version string, from the build (CMakeLists.txt project VERSION). */
#include "keps/version.h"

const char *keps_version(void)
{
    return KEPS_VERSION;
}
