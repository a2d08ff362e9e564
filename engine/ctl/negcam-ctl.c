// SPDX-License-Identifier: GPL-2.0-only OR MIT
int main(void) { return 0; }
