// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include "check.h"
int main(void) { return check_done("test_ctl"); }
