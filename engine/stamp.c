/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* placeholder: being written */
#include "compat.h"
