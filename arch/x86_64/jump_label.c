/* Patching static-key branches (see asm/jump_label.h). */
#include <asm/jump_label.h>
#include <asm/page.h>
#include <asm/irqflags.h>
#include "linux/string.h"
#include "linux/spinlock.h"
#include "linux/atomic.h"
#include "linux/smp.h"

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

/* cpuid serializes: no stale decoded copy of the old bytes runs after this (Linux's sync_core). */
static void sync_core(void)
{
	unsigned int eax = 0, ebx, ecx = 0, edx;

	__asm__ __volatile__("cpuid" : "+a"(eax), "=b"(ebx), "+c"(ecx), "=d"(edx) : : "memory");
}

/*
 * The other CPUs stand still while the text changes (the stop_machine way;
 * Linux's text_poke_bp uses a breakpoint instead): each takes an IPI, says
 * it is there, spins with interrupts off until the patch is done, then
 * serializes before it runs the new bytes.  A CPU stopped at an
 * instruction boundary never sees half of a 5-byte patch.
 */
static spinlock_t jump_label_lock = SPINLOCK_INIT("jump_label");
static atomic_t patch_arrived, patch_left;
static bool patch_done;

static void patch_wait(void *info)
{
	atomic_inc(&patch_arrived);
	while (!__atomic_load_n(&patch_done, __ATOMIC_ACQUIRE))
		cpu_relax();
	sync_core();
	atomic_inc(&patch_left);
}

static void static_key_set(struct static_key *key, bool on)
{
	int others = (int)num_online_cpus() - 1;
	unsigned long flags;

	spin_lock(&jump_label_lock);
	flags = arch_local_irq_save();
	atomic_set(&patch_arrived, 0);
	atomic_set(&patch_left, 0);
	__atomic_store_n(&patch_done, false, __ATOMIC_RELEASE);
	if (others > 0)
		smp_call_function_many(cpu_online_mask, patch_wait, NULL, false);
	while (atomic_read(&patch_arrived) < others)
		cpu_relax();
	key->enabled = on;
	for (struct jump_entry *e = __start___jump_table; e < __stop___jump_table; e++)
		if (e->key == key)
			jump_label_patch(e, on);
	sync_core();
	__atomic_store_n(&patch_done, true, __ATOMIC_RELEASE);
	while (atomic_read(&patch_left) < others)
		cpu_relax();
	arch_local_irq_restore(flags);
	spin_unlock(&jump_label_lock);
}

void static_branch_enable(struct static_key *key)
{
	static_key_set(key, true);
}

void static_branch_disable(struct static_key *key)
{
	static_key_set(key, false);
}
