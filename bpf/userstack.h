/* SPDX-License-Identifier: GPL-2.0 */
/* What the stack-taking probes (profile, offcpu) copy of a user thread for DWARF unwinding in
 * user space, as perf record --call-graph dwarf does: its registers and the top of its stack. */
#ifndef BPFLENS_USERSTACK_H
#define BPFLENS_USERSTACK_H

/* Largest copy of the user stack (option stackBytes) and the piece a copy is read in: a piece
 * never crosses a page, so the first one that fails is the stack's top, not a torn read. */
#define USER_STACK_MAX_COPY 32768
#define USER_STACK_PAGE 4096
/* The x86_64 DWARF registers of symbolizerclient.h's UserRegisters: 0-15 and the ip as 16. */
#define USER_REGS 17

#endif
