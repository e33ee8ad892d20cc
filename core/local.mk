bin_PROGRAMS += wultfw
wultfw_SOURCES = core/main.c
