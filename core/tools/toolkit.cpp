#include "core/tools/toolkit.h"
