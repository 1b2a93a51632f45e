/* The host tests run on x86-64 too: the kernel's return hooks as they are. */
#include "arch/x86_64/include/asm/return_hook.h"
