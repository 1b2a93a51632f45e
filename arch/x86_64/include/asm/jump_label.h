/*
 * Static keys (Linux's jump labels, simplified): a branch that costs one
 * 5-byte NOP while its key is off.  Each use records (NOP address, branch
 * target, key) in the __jump_table section; static_branch_enable() patches
 * every NOP of the key into a JMP to its target, through the direct map's
 * writable alias of the kernel text.  The rmap observation hook uses one
 * (mm/rmap_observe.h), so that an rmap call pays nothing measurable while
 * the mapcount trace and the shadow counter are off.
 *
 * Lock order: patching holds jump_label_lock, taken with no other lock held
 * (boot, the mapcount trace's switch), and stops the other CPUs,
 * interrupts off, until the new bytes are in (jump_label.c).
 */
#ifndef ASM_JUMP_LABEL_H
#define ASM_JUMP_LABEL_H

#include "linux/types.h"

struct static_key {
	bool enabled;
};

struct jump_entry {
	unsigned long code, target;
	struct static_key *key;
};

/* false, unless the key was enabled: then the NOP at "1:" is a JMP to l_yes. */
static __attribute__((always_inline)) inline bool static_branch_unlikely(struct static_key *key)
{
	__asm__ goto("1: .byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n\t"
		     ".pushsection __jump_table, \"aw\"\n\t"
		     ".balign 8\n\t"
		     ".quad 1b, %l[l_yes], %c0\n\t"
		     ".popsection\n\t"
		     : : "i"(key) : : l_yes);
	return false;
l_yes:
	return true;
}

void static_branch_enable(struct static_key *key);
void static_branch_disable(struct static_key *key);

#endif
