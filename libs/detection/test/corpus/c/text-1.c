#include "x.h"
static int f(int a) { return a; }
