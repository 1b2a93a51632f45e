/* Patching static-key branches (see asm/jump_label.h). */
#include <asm/jump_label.h>
#include <asm/page.h>
#include <asm/irqflags.h>
#include "linux/string.h"

extern struct jump_entry __start___jump_table[], __stop___jump_table[];

static const u8 nop5[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

/* Write a JMP to the entry's target (on) or the NOP back (off) at its site. */
static void jump_label_patch(const struct jump_entry *e, bool on)
{
	u8 insn[5];
	s32 rel = (s32)(e->target - (e->code + 5));

	if (on) {
		insn[0] = 0xe9;
		memcpy(insn + 1, &rel, 4);
	} else {
		memcpy(insn, nop5, 5);
	}
	memcpy(__va(__pa((void *)e->code)), insn, 5);
}

static void static_key_set(struct static_key *key, bool on)
{
	unsigned long flags = arch_local_irq_save();
	unsigned int eax = 0, ebx, ecx = 0, edx;

	key->enabled = on;
	for (struct jump_entry *e = __start___jump_table; e < __stop___jump_table; e++)
		if (e->key == key)
			jump_label_patch(e, on);
	/* cpuid serializes: no stale decoded copy of the old bytes runs after this. */
	__asm__ __volatile__("cpuid" : "+a"(eax), "=b"(ebx), "+c"(ecx), "=d"(edx) : : "memory");
	arch_local_irq_restore(flags);
}

void static_branch_enable(struct static_key *key)
{
	static_key_set(key, true);
}

void static_branch_disable(struct static_key *key)
{
	static_key_set(key, false);
}
