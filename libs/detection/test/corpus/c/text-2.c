#include <stdlib.h>
#include <string.h>
