#include <png.h>

/* PNG_FORMAT_RGB is a macro built from other macros, which Swift does not import. */
static const unsigned int ltrain_png_format_rgb = PNG_FORMAT_RGB;
