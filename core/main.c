#include "config.h"
#include <stdio.h>
int main(void) { puts(PACKAGE_STRING); return 0; }
