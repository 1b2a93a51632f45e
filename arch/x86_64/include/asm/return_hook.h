/*
 * Return hooks (Linux's kretprobe trampoline, reduced to one hook per CPU
 * at a time): a function can be made to return through
 * return_hook_trampoline, which calls return_hook_handler() with the
 * function's return value and then jumps to the address the function was
 * going to return to, which the handler gives back.  Used by the rmap
 * functions' observation hook (mm/rmap_observe.c) to see an operation's
 * end without a second hook.
 *
 * x86-64 with frame pointers: a function's frame pointer points at the
 * saved frame pointer, with the return address above it.  The trampoline
 * keeps rax and rdx (the return value); every other register it may clobber
 * is dead at a return.
 */
#ifndef ASM_RETURN_HOOK_H
#define ASM_RETURN_HOOK_H

extern char return_hook_trampoline[];

/*
 * What the trampoline calls, ret being what the function returned (rax;
 * garbage for a void function); returns the real return address.
 */
unsigned long return_hook_handler(unsigned long ret);

/* Make the function whose frame pointer is frame return through the trampoline. */
static inline unsigned long return_hook_install(void *frame)
{
	unsigned long *ret = (unsigned long *)frame + 1;
	unsigned long orig = *ret;

	*ret = (unsigned long)return_hook_trampoline;
	return orig;
}

#endif
