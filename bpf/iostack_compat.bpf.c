// SPDX-License-Identifier: GPL-2.0
// The iostack probe for kernels before 5.12, whose verifier refuses atomic fetch operations:
// the same programs and maps, built without them (see add_then_read() in iostack.bpf.c).
#define IOSTACK_NO_FETCH 1
#include "bpf/iostack.bpf.c"
