/*
 * The host tests take the kernel's asm/tlbflush.h as it is: the soft MMU
 * (tests/host/softmmu.c) implements the flushes, and like x86 it walks the
 * tables again when a cached translation faults.
 */
#include "arch/x86_64/include/asm/tlbflush.h"
